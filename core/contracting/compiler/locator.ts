import type { SourceRange } from './syntax-tree.js';

/**
 * Maps offsets in a JS string (UTF-16 units) to 1-based lines and 0-based columns counted in
 * Unicode code points, as upstream's parser (rustpython) reports them.
 */
export class Locator {
  private readonly lineStarts: number[] = [0];
  /** Lines holding a surrogate pair, where UTF-16 units and code points differ. */
  private readonly astralLines = new Set<number>();

  constructor(private readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) this.lineStarts.push(i + 1);
      else if (c === 13) {
        if (text.charCodeAt(i + 1) === 10) i++;
        this.lineStarts.push(i + 1);
      } else if (c >= 0xd800 && c <= 0xdbff) this.astralLines.add(this.lineStarts.length - 1);
    }
  }

  position(offset: number): { line: number; column: number } {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    const start = this.lineStarts[lo]!;
    let column = offset - start;
    if (this.astralLines.has(lo)) column = [...this.text.slice(start, offset)].length;
    return { line: lo + 1, column };
  }

  range(from: number, to: number): SourceRange {
    const start = this.position(from);
    const end = this.position(to);
    return { startLine: start.line, startColumn: start.column, endLine: end.line, endColumn: end.column };
  }
}
