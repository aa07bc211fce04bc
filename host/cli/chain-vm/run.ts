import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { runVm, stringifyVmJson, VmRequestError } from '../../../core/contracting/index.js';

/**
 * `chain-vm run [FILE|-]`: runs one call of a `runVm` request (JSON file, or standard input
 * with `-` or no argument) in the in-memory VM sandbox and prints the result JSON. Exit 0
 * whenever the call ran (a failed call has `status: 1`), 2 for a malformed request.
 */
export const EXIT_MALFORMED_REQUEST = 2;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export function registerRunCommand(program: Command): void {
  program
    .command('run')
    .description('Run one contract call in the in-memory VM sandbox and print the result JSON')
    .argument('[file]', 'request JSON file, or - for standard input', '-')
    .option('--compact', 'print the result on one line')
    .action(async (file: string, opts: { compact?: boolean }) => {
      let text: string;
      try {
        text = file === '-' ? await readStdin() : await readFile(file, 'utf8');
      } catch (err) {
        process.stderr.write(`chain-vm: error: cannot read ${file}: ${(err as Error).message}\n`);
        process.exitCode = EXIT_MALFORMED_REQUEST;
        return;
      }
      try {
        const result = runVm(text);
        const printable = { ...result, status: BigInt(result.status) };
        process.stdout.write(`${stringifyVmJson(printable as never, opts.compact ? '' : '  ')}\n`);
      } catch (err) {
        if (!(err instanceof VmRequestError)) throw err;
        process.stderr.write(`chain-vm: error: malformed request: ${err.message}\n`);
        process.exitCode = EXIT_MALFORMED_REQUEST;
      }
    });
}
