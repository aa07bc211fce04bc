import { GraphQLError } from 'graphql';

/**
 * Nesting bounds checked before a document is parsed and before variables are coerced.
 * graphql-js parses, validates and coerces input recursively: 3,000 nested inline fragments or
 * a 2,000-deep `and` filter overflow the stack, and the RangeError reached the client as
 * `{"errors":[{}]}`. Both scans here are iterative and linear in their input, so a hostile
 * document is refused at once with a message and its own code.
 */

/** Deepest `{`/`[`/`(` nesting of a document; far above any real query (introspection: ~20). */
export const MAX_DOCUMENT_NESTING = 200;
/** Deepest object/array nesting of the variables (a filter `and` level is two). */
export const MAX_VARIABLE_NESTING = 100;

/** The deepest bracket nesting of a GraphQL document, skipping strings, block strings and comments. */
export function documentNesting(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x23 /* # */) {
      while (i < text.length && text.charCodeAt(i) !== 0x0a && text.charCodeAt(i) !== 0x0d) i++;
    } else if (c === 0x22 /* " */) {
      if (text.startsWith('"""', i)) {
        const end = findBlockStringEnd(text, i + 3);
        i = end < 0 ? text.length : end + 2;
      } else {
        i++;
        while (i < text.length && text.charCodeAt(i) !== 0x22 && text.charCodeAt(i) !== 0x0a) i += text.charCodeAt(i) === 0x5c ? 2 : 1;
      }
    } else if (c === 0x7b || c === 0x5b || c === 0x28) {
      if (++depth > deepest) deepest = depth;
    } else if (c === 0x7d || c === 0x5d || c === 0x29) {
      depth--;
    }
  }
  return deepest;
}

function findBlockStringEnd(text: string, from: number): number {
  let i = from;
  for (;;) {
    const end = text.indexOf('"""', i);
    if (end < 0) return -1;
    if (text.charCodeAt(end - 1) !== 0x5c) return end; // \""" is an escaped quote triple
    i = end + 3;
  }
}

export function checkDocumentNesting(text: string): void {
  const nesting = documentNesting(text);
  if (nesting > MAX_DOCUMENT_NESTING) {
    throw new GraphQLError(
      `Query is nested ${nesting} brackets deep, above the limit of ${MAX_DOCUMENT_NESTING}; flatten fragments and filters, or split the query`,
      { extensions: { code: 'QUERY_TOO_DEEP', maxNesting: MAX_DOCUMENT_NESTING } },
    );
  }
}

/** The deepest object/array nesting of a JSON value, without recursion; stops counting past `limit`. */
export function valueNesting(value: unknown, limit = Infinity): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    const d = depth + 1;
    if (d > deepest) deepest = d;
    if (d > limit) return d; // no need to walk the rest
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, d]);
  }
  return deepest;
}

export function variableNestingError(variables: Record<string, unknown> | null | undefined): GraphQLError | null {
  if (!variables) return null;
  // Each variable's value is measured; the variables object itself is not input nesting.
  const nesting = Math.max(0, ...Object.values(variables).map((v) => valueNesting(v, MAX_VARIABLE_NESTING)));
  if (nesting <= MAX_VARIABLE_NESTING) return null;
  return new GraphQLError(
    `Variables are nested more than ${MAX_VARIABLE_NESTING} levels deep (objects and lists); flatten the filter (an \`and\`/\`or\` list takes many items at one level)`,
    { extensions: { code: 'INPUT_TOO_DEEP', maxNesting: MAX_VARIABLE_NESTING } },
  );
}
