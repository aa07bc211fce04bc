/**
 * A file under the devnet's home that cannot be used at start-up: the message names the file,
 * what is wrong with it and what the operator can do (restore, fix, delete or reset), so a
 * corrupt or hand-edited home never fails with a bare parser error.
 */
export class HomeFileError extends Error {
  constructor(readonly file: string, problem: string, readonly advice: string) {
    super(`${file}: ${problem}; ${advice}`);
    this.name = 'HomeFileError';
  }
}

/** Runs `read` for `file`; any failure that is not already a HomeFileError becomes one with `advice`. */
export function readingHomeFile<T>(file: string, advice: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof HomeFileError) throw err;
    const message = err instanceof Error ? err.message : String(err);
    const problem = message.startsWith(`${file}: `) ? message.slice(file.length + 2) : message;
    throw new HomeFileError(file, problem, advice);
  }
}

export const RESET_ADVICE = 'restore it from a backup, or start a new chain with reset (chain-devnet --reset)';
