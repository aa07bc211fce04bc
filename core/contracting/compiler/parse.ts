import type { PartialParse, SyntaxNode, Tree } from '@lezer/common';
import { parser } from '@lezer/python';
import { CstContext } from './cst-context.js';
import { StatementReader } from './cst-statements.js';
import { MAX_SYNTAX_DEPTH, TOO_DEEPLY_NESTED_CODE } from './limits.js';
import type { Locator } from './locator.js';
import { SourceParseError } from './parse-error.js';
import type { Statement } from './syntax-tree.js';
import { scanSource } from './token-scan.js';

/**
 * Parses Python source with @lezer/python and reads the module's statements. Throws
 * SourceParseError at the first place the text is not valid Python (lezer recovers from errors and
 * marks them with error nodes; the chain refuses the whole source at the first one).
 *
 * lezer is an editor's error-tolerant grammar, so acceptance is made strict in three layers: the
 * lexical pass (`token-scan.ts`: indentation, strings, brackets, continuations, as rustpython's
 * lexer), every error node of the tree, and the readers' own checks of what lezer takes too
 * loosely (keywords as attribute names, parameter order, `raise a, b`, …). Checked against CPython's
 * `ast.parse` on every contract source of upstream's repository and on mutations of them.
 */
export function parseModule(source: string, locator: Locator): Statement[] {
  const { unclosed, endingContinuations } = scanSource(source);
  // lezer wants a line break after a last line of only blanks (Python does not); the blanks are
  // outside every statement, so the tree of the text without them is the tree of the source.
  let text = source.replace(/(^|[\n\r])[ \t\f]+$/, '$1');
  // A backslash before a blank line continues nothing (see scanSource): the parser gets a blank.
  if (endingContinuations.length > 0) {
    const parts: string[] = [];
    let from = 0;
    for (const at of endingContinuations) {
      parts.push(text.slice(from, at), ' ');
      from = at + 1;
    }
    parts.push(text.slice(from));
    text = parts.join('');
  }
  for (let retries = 0; ; retries++) {
    const tree = parseTree(text);
    const failure = checkTree(tree, source, locator, unclosed);
    if (!failure) {
      const ctx = new CstContext(source, locator);
      return new StatementReader(ctx).block(tree.topNode, 0);
    }
    // lezer does not know Python 3.9's parenthesized with-items; the chain parses them (and then
    // refuses the with statement): read such a header without its parentheses and parse again.
    // (A few such headers; past that the source is refused as lezer read it, parse work stays linear.)
    const unwrapped = failure.errorAt && retries < MAX_WITH_RETRIES ? withoutWithParentheses(text, failure.errorAt) : undefined;
    if (unwrapped === undefined) throw failure.error;
    text = unwrapped;
  }
}

/**
 * The first reason to refuse the tree: an error node (with the node, for the with-header retry), a
 * bracket left open, or nesting past the limits. The walk is iterative, so a pathologically nested
 * source is refused here without recursion.
 */
function checkTree(tree: Tree, source: string, locator: Locator, unclosed: SourceParseError | undefined): { error: SourceParseError; errorAt?: SyntaxNode } | undefined {
  let depth = 0;
  let treeDepth = 0;
  /** Per entered node, whether it added a level (links of a flat chain do not). */
  const counted: boolean[] = [];
  let failure: { error: SourceParseError; errorAt?: SyntaxNode } | undefined;
  tree.iterate({
    enter(node) {
      if (failure) return false;
      // lezer's grammar wants a value after `yield`; Python does not (and the subset refuses yield anyway).
      if (node.type.isError && node.from === node.to && /^Yield(Statement|Expression)$/.test(node.node.parent?.name ?? '')) return false;
      // Nor does it know the float literal `1.` (it reads `1` `.` and wants an attribute name).
      if (node.type.isError && node.from === node.to && trailingDotNumber(node.node.parent, source)) return false;
      if (node.type.isError) {
        // A bracket left open on an earlier line is what is wrong, as CPython reports it.
        const bracketFirst = unclosed && (node.from >= source.trimEnd().length || locator.position(node.from).line > locator.position(unclosed.offset).line);
        failure = bracketFirst ? { error: unclosed } : { error: new SourceParseError(node.from, errorMessage(source, node.from)), errorAt: node.node };
        return false;
      }
      const level = !((node.name === 'BinaryExpression' || node.name === 'UnaryExpression') && chainLink(source, node.node));
      counted.push(level);
      if (level) depth++;
      treeDepth++;
      if (treeDepth > MAX_PARSER_TREE_DEPTH) {
        failure = { error: new SourceParseError(node.from, `source nests deeper than the parser's limit of ${MAX_PARSER_TREE_DEPTH} levels`, TOO_DEEPLY_NESTED_CODE) };
        return false;
      }
      if (depth > MAX_SYNTAX_DEPTH) {
        failure = { error: new SourceParseError(node.from, `source nests deeper than the limit of ${MAX_SYNTAX_DEPTH} levels`, TOO_DEEPLY_NESTED_CODE) };
        return false;
      }
      return true;
    },
    leave() {
      if (counted.pop()) depth--;
      treeDepth--;
    },
  });
  return failure ?? (unclosed ? { error: unclosed } : undefined);
}

const MAX_WITH_RETRIES = 4;

/**
 * `with (a as x, b as y,):` → `with  a as x, b as y  :` (same offsets; line breaks and comments
 * inside the parentheses become blanks), when the error lies in the header of a with statement
 * written that way; undefined otherwise. The statement is refused as a with statement either way;
 * this only lets it be read as one.
 */
function withoutWithParentheses(text: string, errorAt: SyntaxNode): string | undefined {
  let statement: SyntaxNode | null = errorAt;
  while (statement && statement.name !== 'WithStatement') statement = statement.parent;
  const keyword = statement?.firstChild;
  const body = statement?.getChild('Body');
  if (!statement || keyword?.name !== 'with' || !body || errorAt.from > body.from) return undefined;
  const header = text.slice(keyword.to, body.from);
  const match = /^(\s*)\(([\s\S]*)\)\s*$/.exec(header);
  if (!match || !/\bas\b/.test(match[2]!)) return undefined;
  const inner = match[2]!
    .replace(/#[^\n\r]*/g, (comment) => ' '.repeat(comment.length))
    .replace(/[\n\r]/g, ' ')
    .replace(/,(\s*)$/, ' $1');
  const open = keyword.to + match[1]!.length;
  const close = open + 1 + inner.length;
  return `${text.slice(0, open)} ${inner} ${text.slice(close + 1)}`;
}

/**
 * Deepest tree lezer may build for an accepted source. lezer's tree builder flattens whatever lies
 * deeper than 2,500 levels into a list of tokens (keeping its own recursion bounded), which would
 * lose the structure of the expression there: a source reaching this depth is refused instead.
 */
const MAX_PARSER_TREE_DEPTH = 2000;

/**
 * `parser.parse`, without lezer's guard against long left-associative chains: after 300 large
 * reductions at one start it forces the parser out of the production, which reads as a syntax
 * error in the middle of `a and b and … ` (a valid chain of ~500 operands). Its purpose, a tree
 * too deep to walk, is served by `MAX_PARSER_TREE_DEPTH` and the tree builder's own cut-off, so the
 * guard's counter is reset at every step.
 */
function parseTree(text: string): Tree {
  const parse = parser.startParse(text) as LezerParse;
  for (;;) {
    const tree = parse.advance();
    if (tree) return tree;
    parse.bigReductionCount = 0;
    // Past 2,800 open productions lezer forces reductions, which read as a syntax error: a source
    // that nests that deep (e.g. `a and not b or not c …`) is refused for its depth instead.
    for (const stack of parse.stacks ?? []) {
      if (stack.stack.length > 3 * MAX_PARSER_TREE_DEPTH) {
        throw new SourceParseError(
          Math.min(stack.pos, text.length - 1),
          `source nests deeper than the parser's limit of ${MAX_PARSER_TREE_DEPTH} levels`,
          TOO_DEEPLY_NESTED_CODE,
        );
      }
    }
  }
}

/** The fields of @lezer/lr's parse that `parseTree` reads (internal; pinned by the compiler's limit tests). */
type LezerParse = PartialParse & { bigReductionCount?: number; stacks?: { stack: number[]; pos: number }[] };

/**
 * lezer nests `a and b and c` (and `a < b < c`) as binary expressions inside each other, and reads
 * `a and not b or c` as `a and not (b or c)`; Python's tree holds one flat BoolOp (Compare) however
 * long the chain, and the reader rebuilds it without recursion. Such links add no level, so a long
 * chain is not mistaken for deep nesting (`not not a` still nests).
 */
function chainLink(source: string, node: SyntaxNode): boolean {
  const parent = node.parent;
  if (!parent) return false;
  if (node.name === 'UnaryExpression') return isNot(source, node) && operatorKind(source, parent) === 'boolean';
  if (node.name !== 'BinaryExpression') return false;
  const kind = operatorKind(source, node);
  if (kind === 'boolean') return operatorKind(source, parent) === 'boolean' || isNot(source, parent);
  // The reader follows compare chains down their left operand only.
  return kind === 'compare' && operatorKind(source, parent) === 'compare' && parent.firstChild?.from === node.from && parent.firstChild.to === node.to;
}

function isNot(source: string, node: SyntaxNode): boolean {
  const op = node.firstChild;
  return node.name === 'UnaryExpression' && op !== null && source.slice(op.from, op.to) === 'not';
}

function operatorKind(source: string, node: SyntaxNode): 'boolean' | 'compare' | 'other' {
  if (node.name !== 'BinaryExpression') return 'other';
  const op = node.firstChild?.nextSibling;
  if (!op) return 'other';
  const text = source.slice(op.from, op.to);
  if (text === 'and' || text === 'or') return 'boolean';
  return /^(==|!=|<|>|<=|>=|in|not|is)$/.test(text) ? 'compare' : 'other';
}

/** `1.`: a MemberExpression of a decimal integer and an adjacent dot, with nothing after it. */
export function trailingDotNumber(node: SyntaxNode | null, source: string): boolean {
  if (node?.name !== 'MemberExpression') return false;
  const number = node.firstChild;
  const dot = number?.nextSibling;
  // Only digits before the dot: `0.11.` is a float and a stray dot, which Python refuses.
  return number?.name === 'Number' && /^[0-9][0-9_]*$/.test(source.slice(number.from, number.to)) &&
    dot?.name === '.' && number.to === dot.from && (!dot.nextSibling || dot.nextSibling.type.isError);
}

function errorMessage(source: string, offset: number): string {
  if (offset >= source.length) return 'unexpected end of file';
  const token = /^\s*(\S{1,20})/.exec(source.slice(offset))?.[1];
  return token ? `invalid syntax: unexpected '${token}'` : 'invalid syntax';
}
