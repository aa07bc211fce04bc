import type { SyntaxNode } from '@lezer/common';
import { parser } from '@lezer/python';
import { checkBracketDepth } from './bracket-depth.js';
import { CstContext } from './cst-context.js';
import { StatementReader } from './cst-statements.js';
import { MAX_SYNTAX_DEPTH, TOO_DEEPLY_NESTED_CODE } from './limits.js';
import type { Locator } from './locator.js';
import { SourceParseError } from './parse-error.js';
import type { Statement } from './syntax-tree.js';

/**
 * Parses Python source with @lezer/python and reads the module's statements. Throws
 * SourceParseError at the first place the text is not valid Python (lezer recovers from errors and
 * marks them with error nodes; the chain refuses the whole source at the first one).
 */
export function parseModule(source: string, locator: Locator): Statement[] {
  checkBracketDepth(source);
  const tree = parser.parse(source);
  let depth = 0;
  let failure: SourceParseError | undefined;
  // The tree walk is iterative, so a pathologically nested source is refused here without recursion.
  tree.iterate({
    enter(node) {
      if (failure) return false;
      // lezer's grammar wants a value after `yield`; Python does not (and the subset refuses yield anyway).
      if (node.type.isError && node.from === node.to && /^Yield(Statement|Expression)$/.test(node.node.parent?.name ?? '')) return false;
      // Nor does it know the float literal `1.` (it reads `1` `.` and wants an attribute name).
      if (node.type.isError && node.from === node.to && trailingDotNumber(node.node.parent)) return false;
      if (node.type.isError) {
        failure = new SourceParseError(node.from, errorMessage(source, node.from));
        return false;
      }
      depth++;
      if (depth > MAX_SYNTAX_DEPTH) {
        failure = new SourceParseError(
          node.from,
          `source nests deeper than the limit of ${MAX_SYNTAX_DEPTH} levels`,
          TOO_DEEPLY_NESTED_CODE,
        );
        return false;
      }
      return true;
    },
    leave() {
      depth--;
    },
  });
  if (failure) throw failure;
  const ctx = new CstContext(source, locator);
  return new StatementReader(ctx).block(tree.topNode, 0);
}

/** `1.`: a MemberExpression of a decimal integer and an adjacent dot, with nothing after it. */
export function trailingDotNumber(node: SyntaxNode | null): boolean {
  if (node?.name !== 'MemberExpression') return false;
  const number = node.firstChild;
  const dot = number?.nextSibling;
  return number?.name === 'Number' && dot?.name === '.' && number.to === dot.from && (!dot.nextSibling || dot.nextSibling.type.isError);
}

function errorMessage(source: string, offset: number): string {
  if (offset >= source.length) return 'unexpected end of file';
  const token = /^\s*(\S{1,20})/.exec(source.slice(offset))?.[1];
  return token ? `invalid syntax: unexpected '${token}'` : 'invalid syntax';
}
