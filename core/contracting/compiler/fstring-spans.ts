import type { Expression, SourceRange, Statement } from './syntax-tree.js';
import { forEachExpression } from './walk.js';

/**
 * Re-derives the spans of the literal and `{…}` parts of single-line f-strings by scanning the text,
 * as upstream's syntax builder does (C/syntax.rs `refine_fstring_value_spans`). Upstream indexes the
 * line's UTF-8 bytes with its column numbers, so this works on bytes too and gives up where upstream
 * would (an index inside a multi-byte character).
 */
export function refineFStringSpans(body: Statement[], source: string): void {
  const lines = source.split('\n').map((line) => Buffer.from(line.endsWith('\r') ? line.slice(0, -1) : line, 'utf8'));
  forEachExpression(body, (expression) => {
    if (expression.kind === 'JoinedStr') refine(expression.span, expression.values, lines);
  });
}

const QUOTE_SINGLE = 0x27;
const QUOTE_DOUBLE = 0x22;
const OPEN = 0x7b;
const CLOSE = 0x7d;
const BACKSLASH = 0x5c;

function isBoundary(line: Buffer, index: number): boolean {
  return index === line.length || (index < line.length && (line[index]! & 0xc0) !== 0x80);
}

/** Rust's `line.get(start..end).is_some()`. */
function validSlice(line: Buffer, start: number, end: number): boolean {
  return start <= end && end <= line.length && isBoundary(line, start) && isBoundary(line, end);
}

function charLength(byte: number): number {
  return byte < 0x80 ? 1 : byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : 2;
}

function refine(span: SourceRange, values: Expression[], lines: Buffer[]): void {
  if (span.startLine !== span.endLine) return;
  const line = lines[span.startLine - 1];
  if (!line) return;
  const boundedEnd = Math.min(span.endColumn, line.length);
  if (!validSlice(line, span.startColumn, boundedEnd)) return;
  let contentStart = -1;
  for (let i = span.startColumn; i < boundedEnd; i += charLength(line[i]!)) {
    if (line[i] === QUOTE_SINGLE || line[i] === QUOTE_DOUBLE) {
      contentStart = i + 1;
      break;
    }
  }
  if (contentStart < 0 || boundedEnd < 1) return;
  const contentEnd = boundedEnd - 1;
  if (contentStart > contentEnd) return;

  let cursor = contentStart;
  for (const value of values) {
    if (value.kind === 'Constant' && value.value.type === 'str') {
      const end = nextExpression(line, cursor, contentEnd) ?? contentEnd;
      value.span = { startLine: span.startLine, startColumn: cursor, endLine: span.startLine, endColumn: end };
      cursor = end;
    } else if (value.kind === 'FormattedValue') {
      const start = nextExpression(line, cursor, contentEnd);
      if (start === undefined) return;
      const end = expressionEnd(line, start, contentEnd);
      if (end === undefined) return;
      value.span = { startLine: span.startLine, startColumn: start, endLine: span.startLine, endColumn: end };
      cursor = end;
    }
  }
}

function nextExpression(line: Buffer, start: number, end: number): number | undefined {
  let cursor = start;
  while (cursor < end) {
    if (!validSlice(line, cursor, end)) return undefined;
    if (line[cursor] === OPEN && cursor + 1 < end && line[cursor + 1] === OPEN) {
      cursor += 2;
      continue;
    }
    if (line[cursor] === OPEN) return cursor;
    cursor += charLength(line[cursor]!);
  }
  return undefined;
}

function expressionEnd(line: Buffer, start: number, end: number): number | undefined {
  let cursor = start;
  let depth = 0;
  let quote: number | undefined;
  let escaped = false;
  while (cursor < end) {
    if (!validSlice(line, cursor, end)) return undefined;
    const byte = line[cursor]!;
    const length = charLength(byte);
    if (quote !== undefined) {
      if (escaped) escaped = false;
      else if (byte === BACKSLASH) escaped = true;
      else if (byte === quote) quote = undefined;
      cursor += length;
      continue;
    }
    if (byte === QUOTE_SINGLE || byte === QUOTE_DOUBLE) quote = byte;
    else if (byte === OPEN) depth++;
    else if (byte === CLOSE) {
      if (depth === 0) return undefined;
      depth--;
      cursor += length;
      if (depth === 0) return cursor;
      continue;
    }
    cursor += length;
  }
  return undefined;
}
