import type { SyntaxNode } from '@lezer/common';
import { MAX_SYNTAX_DEPTH, TOO_DEEPLY_NESTED_CODE } from './limits.js';
import type { Locator } from './locator.js';
import { SourceParseError } from './parse-error.js';
import type { SourceRange, Unsupported } from './syntax-tree.js';

/** What the readers of the parser's tree share: the text, positions and the nesting guard. */
export class CstContext {
  constructor(
    readonly source: string,
    readonly locator: Locator,
  ) {}

  text(node: SyntaxNode): string {
    return this.source.slice(node.from, node.to);
  }

  range(from: number, to: number): SourceRange {
    return this.locator.range(from, to);
  }

  fail(offset: number, message: string): never {
    throw new SourceParseError(offset, message);
  }

  /** Refuses nesting beyond the limit before any recursive pass can exhaust the stack. */
  guardDepth(depth: number, offset: number): void {
    if (depth > MAX_SYNTAX_DEPTH) {
      throw new SourceParseError(
        offset,
        `source nests deeper than the limit of ${MAX_SYNTAX_DEPTH} levels`,
        TOO_DEEPLY_NESTED_CODE,
      );
    }
  }

  unsupported(
    category: Unsupported['category'],
    code: string,
    message: string,
    from: number,
    to: number,
  ): Unsupported {
    return { kind: 'Unsupported', category, code, message, span: this.range(from, to) };
  }
}

/** Children of a node, comments left out. */
export function childrenOf(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.name !== 'Comment') out.push(child);
  }
  return out;
}

/** Splits a flat child list at top-level commas; `trailingComma` tells whether the list ended with one. */
export function splitAtCommas(nodes: SyntaxNode[]): { groups: SyntaxNode[][]; commas: number; trailingComma: boolean } {
  const groups: SyntaxNode[][] = [[]];
  let commas = 0;
  for (const node of nodes) {
    if (node.name === ',') {
      commas++;
      groups.push([]);
    } else groups[groups.length - 1]!.push(node);
  }
  const trailingComma = groups.length > 1 && groups[groups.length - 1]!.length === 0;
  if (trailingComma) groups.pop();
  return { groups, commas, trailingComma };
}
