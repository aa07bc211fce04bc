import type { SourceRange } from './syntax-tree.js';

/** A compiler finding, shaped as upstream's `CompilerDiagnostic` JSON (snake_case range keys). */
export interface CompilerDiagnostic {
  severity: 'error' | 'warning' | 'info';
  code: string;
  message: string;
  range?: DiagnosticRange;
}

export interface DiagnosticRange {
  start_line: number;
  start_column: number;
  end_line: number;
  end_column: number;
}

export function errorDiagnostic(code: string, message: string, range?: SourceRange): CompilerDiagnostic {
  const diagnostic: CompilerDiagnostic = { severity: 'error', code, message };
  if (range) {
    diagnostic.range = {
      start_line: range.startLine,
      start_column: range.startColumn,
      end_line: range.endLine,
      end_column: range.endColumn,
    };
  }
  return diagnostic;
}

/** Stable sort by (line, column, code); diagnostics without a range sort first, as upstream's (0, 0). */
export function sortDiagnostics(diagnostics: CompilerDiagnostic[]): CompilerDiagnostic[] {
  const key = (d: CompilerDiagnostic): [number, number] =>
    d.range ? [d.range.start_line, d.range.start_column] : [0, 0];
  return diagnostics
    .map((d, index) => ({ d, index }))
    .sort((a, b) => {
      const [al, ac] = key(a.d);
      const [bl, bc] = key(b.d);
      if (al !== bl) return al - bl;
      if (ac !== bc) return ac - bc;
      if (a.d.code !== b.d.code) return a.d.code < b.d.code ? -1 : 1;
      return a.index - b.index;
    })
    .map(({ d }) => d);
}
