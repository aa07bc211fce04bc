import { MAX_SYNTAX_DEPTH, TOO_DEEPLY_NESTED_CODE } from './limits.js';
import { SourceParseError } from './parse-error.js';

/**
 * Refuses brackets nested deeper than the limit before the parser sees the text: @lezer/python
 * builds its tree recursively and exhausts the stack on a few thousand nested parentheses. One
 * linear pass; strings and comments are skipped, and the `{…}` fields of f-strings count as
 * brackets (they nest expressions).
 */
export function checkBracketDepth(source: string): void {
  let depth = 0;
  const open = (offset: number) => {
    depth++;
    if (depth > MAX_SYNTAX_DEPTH) {
      throw new SourceParseError(offset, `brackets nest deeper than the limit of ${MAX_SYNTAX_DEPTH} levels`, TOO_DEEPLY_NESTED_CODE);
    }
  };
  const close = () => {
    if (depth > 0) depth--;
  };
  let i = 0;
  const n = source.length;
  while (i < n) {
    const ch = source[i]!;
    if (ch === '#') {
      while (i < n && source[i] !== '\n') i++;
      continue;
    }
    if (ch === "'" || ch === '"') {
      i = skipString(source, i, isFormatPrefix(source, i), open, close);
      continue;
    }
    if (ch === '(' || ch === '[' || ch === '{') open(i);
    else if (ch === ')' || ch === ']' || ch === '}') close();
    i++;
  }
}

/** Whether the letters right before a quote make it an f-string (`f'`, `rf"`, `Fr'`…). */
function isFormatPrefix(source: string, quoteAt: number): boolean {
  let start = quoteAt;
  while (start > 0 && start > quoteAt - 2 && /[a-zA-Z]/.test(source[start - 1]!)) start--;
  if (start > 0 && /[\w]/.test(source[start - 1]!)) return false;
  return /f/i.test(source.slice(start, quoteAt));
}

/** Offset just after the string starting at `at`; inside an f-string, braces count as brackets. */
function skipString(source: string, at: number, format: boolean, open: (offset: number) => void, close: () => void): number {
  const quote = source[at]!;
  const triple = source.startsWith(quote.repeat(3), at);
  let i = at + (triple ? 3 : 1);
  const n = source.length;
  while (i < n) {
    const ch = source[i]!;
    if (ch === '\\') {
      i += 2;
      continue;
    }
    if (!triple && ch === '\n') return i;
    if (ch === quote && (!triple || source.startsWith(quote.repeat(3), i))) return i + (triple ? 3 : 1);
    if (format) {
      if ((ch === '{' || ch === '}') && source[i + 1] === ch) {
        i += 2;
        continue;
      }
      if (ch === '{' || ch === '(' || ch === '[') open(i);
      else if (ch === '}' || ch === ')' || ch === ']') close();
    }
    i++;
  }
  return n;
}
