import type { SyntaxNode } from '@lezer/common';
import { childrenOf, type CstContext } from './cst-context.js';
import type { ExpressionReader } from './cst-expressions.js';
import { decodeStringBody, stringPrefix } from './literals.js';
import type { Expression, SourceRange } from './syntax-tree.js';

type Part = { literal: string } | { value: Expression };

/**
 * Reads a string literal, an f-string, or an implicit concatenation of them, into a constant (str or
 * bytes) or a JoinedStr whose adjacent literal parts are merged and empty ones dropped. As in
 * rustpython, every part of an f-string (literal pieces, `{…}` fields, format specs) spans the whole
 * string; only the expressions inside the fields have their own positions. (The syntax builder
 * then re-derives the spans of single-line f-strings' parts from the text: fstring-spans.ts.)
 */
export function readStrings(ctx: CstContext, reader: ExpressionReader, node: SyntaxNode, depth: number): Expression {
  const tokens = node.name === 'ContinuedString' ? childrenOf(node) : [node];
  const span = ctx.range(node.from, node.to);
  let sawBytes = false;
  let sawText = false;
  let sawFormat = false;
  const bytes: number[] = [];
  const parts: Part[] = [];
  for (const token of tokens) {
    const text = ctx.text(token);
    const prefix = stringPrefix(text, token.from);
    const bodyFrom = token.from + prefix.length + prefix.quote;
    const bodyTo = token.to - prefix.quote;
    if (bodyTo < bodyFrom) ctx.fail(token.from, 'unterminated string literal');
    if (prefix.bytes) sawBytes = true;
    else sawText = true;
    if (sawBytes && sawText) ctx.fail(token.from, 'cannot mix bytes and nonbytes literals');
    if (prefix.format) {
      sawFormat = true;
      parts.push(...formatParts(ctx, reader, token, bodyFrom, bodyTo, prefix.raw, span, depth));
      continue;
    }
    const piece = decodeStringBody(ctx.source.slice(bodyFrom, bodyTo), bodyFrom, prefix.raw, prefix.bytes);
    if (piece.kind === 'bytes') bytes.push(...piece.value);
    else parts.push({ literal: piece.value });
  }
  if (sawBytes) {
    const hex = bytes.map((byte) => byte.toString(16).padStart(2, '0')).join('');
    return { kind: 'Constant', span, value: { type: 'bytes', value: hex } };
  }
  if (!sawFormat) {
    return { kind: 'Constant', span, value: { type: 'str', value: parts.map((part) => ('literal' in part ? part.literal : '')).join('') } };
  }
  return { kind: 'JoinedStr', span, values: joinParts(parts, span) };
}

function joinParts(parts: Part[], span: SourceRange): Expression[] {
  const values: Expression[] = [];
  let pending = '';
  for (const part of parts) {
    if ('literal' in part) {
      pending += part.literal;
      continue;
    }
    if (pending) values.push({ kind: 'Constant', span, value: { type: 'str', value: pending } });
    pending = '';
    values.push(part.value);
  }
  if (pending) values.push({ kind: 'Constant', span, value: { type: 'str', value: pending } });
  return values;
}

/** Literal text of an f-string segment: `{{`/`}}` halved, escapes decoded. */
function literalText(ctx: CstContext, from: number, to: number, raw: boolean): string {
  const text = ctx.source.slice(from, to);
  let unbraced = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if ((ch === '{' || ch === '}') && text[i + 1] === ch) {
      unbraced += ch;
      i++;
    } else if (ch === '}') {
      ctx.fail(from + i, "f-string: single '}' is not allowed");
    } else unbraced += ch;
  }
  const piece = decodeStringBody(unbraced, from, raw, false);
  return piece.kind === 'str' ? piece.value : '';
}

function formatParts(
  ctx: CstContext,
  reader: ExpressionReader,
  container: SyntaxNode,
  from: number,
  to: number,
  raw: boolean,
  span: SourceRange,
  depth: number,
): Part[] {
  const parts: Part[] = [];
  let cursor = from;
  for (const child of childrenOf(container)) {
    if (child.name !== 'FormatReplacement') continue;
    if (child.from > cursor) parts.push({ literal: literalText(ctx, cursor, child.from, raw) });
    parts.push(...replacement(ctx, reader, child, raw, span, depth));
    cursor = child.to;
  }
  if (to > cursor) parts.push({ literal: literalText(ctx, cursor, to, raw) });
  return parts;
}

function replacement(
  ctx: CstContext,
  reader: ExpressionReader,
  node: SyntaxNode,
  raw: boolean,
  span: SourceRange,
  depth: number,
): Part[] {
  ctx.guardDepth(depth, node.from);
  const children = childrenOf(node);
  const end = children.findIndex((child) =>
    child.name === 'FormatSelfDoc' || child.name === 'FormatConversion' || child.name === 'FormatSpec' || child.name === '}');
  const expressionNodes = children.slice(1, end < 0 ? children.length : end);
  if (expressionNodes.length === 0) ctx.fail(node.from + 1, "f-string: empty expression not allowed");
  const expressionEnd = expressionNodes[expressionNodes.length - 1]!.to;
  const backslash = ctx.source.slice(node.from + 1, expressionEnd).indexOf('\\');
  if (backslash >= 0) ctx.fail(node.from + 1 + backslash, 'f-string expression part cannot include a backslash');
  const value = reader.exprList(expressionNodes, depth + 1, node.from);
  const selfDoc = children.find((child) => child.name === 'FormatSelfDoc');
  const conversionNode = children.find((child) => child.name === 'FormatConversion');
  const specNode = children.find((child) => child.name === 'FormatSpec');
  let conversion: string | null = null;
  if (conversionNode) {
    conversion = ctx.text(conversionNode).slice(1).trim();
    if (!['r', 's', 'a'].includes(conversion)) ctx.fail(conversionNode.from, 'f-string: invalid conversion character');
  }
  let formatSpec: Expression | null = null;
  if (specNode) {
    formatSpec = {
      kind: 'JoinedStr',
      span,
      values: joinParts(formatParts(ctx, reader, specNode, specNode.from + 1, specNode.to, raw, span, depth + 1), span),
    };
  }
  const parts: Part[] = [];
  if (selfDoc) {
    parts.push({ literal: ctx.source.slice(node.from + 1, selfDoc.to) });
    if (!conversion && !formatSpec) conversion = 'r';
  }
  parts.push({ value: { kind: 'FormattedValue', span, value, conversion, formatSpec } });
  return parts;
}
