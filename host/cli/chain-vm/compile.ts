import { open } from 'node:fs/promises';
import type { Command } from 'commander';
import { compileContract, MAX_SOURCE_BYTES, SOURCE_TOO_LARGE_CODE, SOURCE_TOO_LARGE_MESSAGE, type CompilerDiagnostic } from '../../../core/contracting/index.js';

/** A source that could not be read at all (missing file): an invocation problem, exit 2. */
class SourceReadError extends Error {}

/** Reads at most the compiler's size limit plus one byte, so an oversized input costs no more. */
async function readSource(file: string | undefined): Promise<Buffer> {
  const cap = MAX_SOURCE_BYTES + 1;
  if (file === undefined || file === '-') {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= cap) break;
    }
    return Buffer.concat(chunks).subarray(0, cap);
  }
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    throw new SourceReadError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    const buffer = Buffer.alloc(cap);
    let size = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, size, cap - size, null);
      if (bytesRead === 0) break;
      size += bytesRead;
      if (size >= cap) break;
    }
    return buffer.subarray(0, size);
  } catch (error) {
    throw new SourceReadError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  } finally {
    await handle.close();
  }
}

function decode(bytes: Buffer): string | CompilerDiagnostic {
  if (bytes.length > MAX_SOURCE_BYTES) {
    return { severity: 'error', code: SOURCE_TOO_LARGE_CODE, message: `${SOURCE_TOO_LARGE_MESSAGE} (source: more than ${MAX_SOURCE_BYTES} bytes)` };
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { severity: 'error', code: 'xian.source.invalid', message: 'source: must be UTF-8 text' };
  }
}

/**
 * `FILE:line:col: error: code: message`, the form editors and terminals link. Editors read both
 * numbers 1-based (as gcc and CPython print them); the diagnostic JSON keeps the chain's 0-based
 * columns, so the column is shifted by one here.
 */
export function diagnosticLine(file: string, d: CompilerDiagnostic): string {
  const at = d.range ? `${d.range.start_line}:${d.range.start_column + 1}:` : '';
  return `${file}:${at} ${d.severity}: ${d.code}: ${d.message}`;
}

/**
 * `chain-vm compile --module <name> [FILE|-]`: the artifact JSON on stdout (exit 0); a refused source
 * prints `{"diagnostics": [...]}` on stdout and one readable line per diagnostic on stderr (exit 1).
 */
export function registerCompileCommand(program: Command): void {
  program
    .command('compile')
    .description('compile contract source to a xian_contract_artifact_v1 artifact (normalized source, xian_ir_v1 IR, hashes)')
    .requiredOption('--module <name>', 'the contract (module) name the artifact is compiled for, e.g. con_counter')
    .argument('[file]', 'contract source file; - or none reads standard input')
    .action(async (file: string | undefined, options: { module: string }) => {
      let bytes: Buffer;
      try {
        bytes = await readSource(file);
      } catch (error) {
        if (!(error instanceof SourceReadError)) throw error;
        process.stderr.write(`chain-vm compile: error: ${error.message}\n`);
        process.exitCode = 2;
        return;
      }
      const source = decode(bytes);
      const result = typeof source === 'string' ? compileContract(options.module, source) : { ok: false as const, diagnostics: [source] };
      if (result.ok) {
        process.stdout.write(`${JSON.stringify(result.artifact, null, 2)}\n`);
        return;
      }
      process.stdout.write(`${JSON.stringify({ diagnostics: result.diagnostics }, null, 2)}\n`);
      const name = file === undefined || file === '-' ? '<stdin>' : file;
      for (const d of result.diagnostics) process.stderr.write(`${diagnosticLine(name, d)}\n`);
      process.exitCode = 1;
    });
}
