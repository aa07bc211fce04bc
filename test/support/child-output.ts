import type { ChildProcess, ChildProcessWithoutNullStreams } from 'node:child_process';

/**
 * Resolves with the child's stderr so far once it matches `pattern` (commands print their
 * banner there); rejects, with what was printed, at the timeout or when the child exits first.
 */
export function stderrUntil(child: ChildProcessWithoutNullStreams, pattern: RegExp, timeoutMs = 180_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`no ${pattern} on stderr within ${timeoutMs} ms:\n${text}`)), timeoutMs);
    child.stderr.on('data', (c: Buffer) => {
      text += c;
      if (pattern.test(text)) {
        clearTimeout(timer);
        resolve(text);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before ${pattern}:\n${text}`));
    });
  });
}

/** A finished command: its exit code and everything it printed. */
export interface CommandOutput {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Collects a spawned command's stdout and stderr until it exits. */
export async function outputOf(child: ChildProcess): Promise<CommandOutput> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => (stdout += c));
  child.stderr?.on('data', (c: Buffer) => (stderr += c));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stdout, stderr };
}
