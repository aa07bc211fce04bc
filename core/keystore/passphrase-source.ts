import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { BootError } from '../errors.js';

/**
 * Where a process finds the keystore passphrase without asking anyone:
 * `CHAIN_KEYSTORE_PASSPHRASE` (the passphrase itself) or `CHAIN_KEYSTORE_PASSPHRASE_FILE` (a file
 * holding it, readable by its owner only). The file keeps the passphrase out of places that are
 * copied around — an MCP client's config, a shell history, `ps e` — and is what the printed stdio
 * snippet names. Setting both is refused rather than guessing which one is meant.
 */
export const PASSPHRASE_VARIABLE = 'CHAIN_KEYSTORE_PASSPHRASE';
export const PASSPHRASE_FILE_VARIABLE = 'CHAIN_KEYSTORE_PASSPHRASE_FILE';
/** A passphrase file is a line of text, not a data file: anything larger is a wrong path. */
const MAX_FILE_BYTES = 4096;

function refuse(message: string): never {
  throw new BootError('keystore', `${PASSPHRASE_FILE_VARIABLE}: ${message}`);
}

/** The passphrase from the environment, or null when neither variable is set. */
export async function passphraseFromEnvironment(env: NodeJS.ProcessEnv = process.env): Promise<string | null> {
  const direct = env[PASSPHRASE_VARIABLE] || null;
  const file = env[PASSPHRASE_FILE_VARIABLE] || null;
  if (direct !== null && file !== null) {
    throw new BootError('keystore', `both ${PASSPHRASE_VARIABLE} and ${PASSPHRASE_FILE_VARIABLE} are set; set only one (prefer the file)`);
  }
  if (file === null) return direct;
  const where = path.resolve(file);
  let info;
  try {
    info = await stat(where);
  } catch (err) {
    refuse(`cannot read ${where}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  if (!info.isFile()) refuse(`${where} is not a regular file`);
  if (info.size > MAX_FILE_BYTES) refuse(`${where} has ${info.size} bytes; a passphrase file holds one line`);
  // Windows has no POSIX modes to check.
  if (process.platform !== 'win32' && (info.mode & 0o077) !== 0) {
    refuse(`${where} can be read by its group or others (mode ${(info.mode & 0o777).toString(8).padStart(4, '0')}); make it private with "chmod 600 ${where}"`);
  }
  // One trailing line break (as an editor or `echo` writes it) is not part of the passphrase.
  const text = (await readFile(where, 'utf8')).replace(/\r?\n$/, '');
  if (text === '') refuse(`${where} is empty`);
  return text;
}
