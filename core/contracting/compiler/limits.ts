/**
 * Work bounds of the compiler. Upstream's compiler has none (a pathological source can exhaust its
 * stack); ours refuses such a source with a diagnostic naming the limit, so compile time and memory
 * stay proportional to the input.
 */

/** Largest accepted source, in UTF-8 bytes. */
export const MAX_SOURCE_BYTES = 1024 * 1024;
/** Deepest accepted nesting of the syntax tree (statements, expressions, parentheses, elif chains). */
export const MAX_SYNTAX_DEPTH = 400;

export const SOURCE_TOO_LARGE_CODE = 'xian.source.too_large';
export const TOO_DEEPLY_NESTED_CODE = 'xian.syntax.too_deeply_nested';
