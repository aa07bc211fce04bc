import { openSync } from 'node:fs';
import tty from 'node:tty';
import { PASSPHRASE_VARIABLE } from '../../core/keystore/host-accounts.js';
import { passphraseFromEnvironment } from '../../core/keystore/passphrase-source.js';

/**
 * Secrets reach the commands only through standard input, an environment variable or the
 * terminal — never an argument, which `ps` and shell history would show. Terminal prompts open
 * /dev/tty (as ssh and gpg do), so a key piped into standard input and a passphrase typed at the
 * prompt work together; nothing typed is echoed.
 */
export { PASSPHRASE_VARIABLE };

export class SecretInputError extends Error {}

/** The whole of standard input, trimmed (for `chain-keys import`). */
export async function readStandardInput(stdin: NodeJS.ReadableStream = process.stdin, maxBytes = 64 * 1024): Promise<string> {
  let text = '';
  for await (const chunk of stdin) {
    text += chunk.toString();
    if (text.length > maxBytes) throw new SecretInputError(`standard input is longer than ${maxBytes} bytes; expected one private key or mnemonic`);
  }
  return text.trim();
}

function openTerminal(): { input: tty.ReadStream; output: tty.WriteStream } | null {
  try {
    return { input: new tty.ReadStream(openSync('/dev/tty', 'r')), output: new tty.WriteStream(openSync('/dev/tty', 'w')) };
  } catch {
    return null;
  }
}

/** Reads one line from the terminal without echo; null when there is no terminal. */
export async function promptHidden(prompt: string): Promise<string | null> {
  const terminal = openTerminal();
  if (!terminal) return null;
  const { input, output } = terminal;
  output.write(prompt);
  input.setRawMode(true);
  try {
    return await new Promise<string>((resolve, reject) => {
      let line = '';
      input.on('data', (chunk: Buffer) => {
        for (const ch of chunk.toString('utf8')) {
          if (ch === '\r' || ch === '\n') return resolve(line);
          if (ch === '\u0003' || ch === '\u0004') return reject(new SecretInputError('cancelled at the prompt'));
          if (ch === '\u007f' || ch === '\b') line = line.slice(0, -1);
          else line += ch;
        }
      });
    });
  } finally {
    input.setRawMode(false);
    output.write('\n');
    input.destroy();
    output.destroy();
  }
}

/**
 * The keystore passphrase: CHAIN_KEYSTORE_PASSPHRASE, else a terminal prompt (asked twice when
 * `confirm`, for a keystore's first account), else an error saying how to give one.
 */
export async function keystorePassphrase(options: { confirm?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<string> {
  const fromEnv = await passphraseFromEnvironment(options.env ?? process.env);
  if (fromEnv) return fromEnv;
  const typed = await promptHidden('keystore passphrase: ');
  if (typed === null) throw new SecretInputError(`no keystore passphrase: set ${PASSPHRASE_VARIABLE}_FILE (a file only you can read) or ${PASSPHRASE_VARIABLE}, or run on a terminal`);
  if (options.confirm) {
    const again = await promptHidden('repeat the passphrase: ');
    if (again !== typed) throw new SecretInputError('the two passphrases differ');
  }
  return typed;
}

/**
 * The passphrase a server asks for at start: CHAIN_KEYSTORE_PASSPHRASE, else — only when there
 * are accounts to unlock, standard input is a terminal and not the MCP stdio protocol — a
 * hidden prompt; else null (the keystore stays locked and tools say how to unlock it).
 */
export async function startupPassphrase(hasAccounts: boolean, options: { mcpStdio: boolean; env?: NodeJS.ProcessEnv; stdinIsTTY?: boolean }): Promise<string | null> {
  const fromEnv = await passphraseFromEnvironment(options.env ?? process.env);
  if (fromEnv) return fromEnv;
  const interactive = hasAccounts && !options.mcpStdio && (options.stdinIsTTY ?? process.stdin.isTTY === true);
  return interactive ? promptHidden(`keystore passphrase (or set ${PASSPHRASE_VARIABLE}): `) : null;
}
