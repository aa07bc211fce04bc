import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { compileContract, type CompilerDiagnostic, type ContractArtifact } from '../../../../core/contracting/index.js';

export function compiled(source: string, moduleName = 'con_test'): ContractArtifact {
  const result = compileContract(moduleName, source);
  assert.ok(result.ok, `expected the source to compile, got ${JSON.stringify(!result.ok && result.diagnostics, null, 2)}`);
  return result.artifact;
}

export function refused(source: string, moduleName = 'con_test'): CompilerDiagnostic[] {
  const result = compileContract(moduleName, source);
  assert.ok(!result.ok, 'expected the source to be refused');
  return result.diagnostics;
}

/** A diagnostic as expected: code, message and range `line:col-line:col` (1-based lines, 0-based columns). */
export function diag(code: string, message: string, range?: string): CompilerDiagnostic {
  const d: CompilerDiagnostic = { severity: 'error', code, message };
  if (range) {
    const m = /^(\d+):(\d+)-(\d+):(\d+)$/.exec(range);
    assert.ok(m, `bad range ${range}`);
    d.range = { start_line: Number(m[1]), start_column: Number(m[2]), end_line: Number(m[3]), end_column: Number(m[4]) };
  }
  return d;
}

/** sha256 by node:crypto, independent of the compiler's own hashing. */
export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** An IR span `{line, col, end_line, end_col}` from `line:col-line:col`. */
export function span(range: string): { line: number; col: number; end_line: number; end_col: number } {
  const m = /^(\d+):(\d+)-(\d+):(\d+)$/.exec(range)!;
  return { line: Number(m[1]), col: Number(m[2]), end_line: Number(m[3]), end_col: Number(m[4]) };
}

/** Every object in the IR whose `node` is `kind`, in document order. */
export function nodes(ir: unknown, kind?: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      const o = value as Record<string, unknown>;
      if (typeof o.node === 'string' && (kind === undefined || o.node === kind)) out.push(o);
      for (const key of Object.keys(o)) walk(o[key]);
    }
  };
  walk(ir);
  return out;
}

/** A minimal exported function, appended where a test's subject is elsewhere (lint E013). */
export const EXPORTED = '\n\n@export\ndef ok():\n    return 1\n';
