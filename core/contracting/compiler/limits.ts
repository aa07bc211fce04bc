/**
 * The compiler's input bounds. The size limit is the chain's: upstream refuses to deploy a source of
 * more than `MAX_CONTRACT_SUBMISSION_BYTES` (128 KiB, checked by the node's host before it compiles),
 * so every route into the compiler here — `check_contract`, `deploy_contract`, the devnet's
 * submission, `chain-vm compile` — refuses it at the same door. The nesting limit is ours: upstream's
 * compiler has none (a pathological source can exhaust its stack); ours refuses such a source with a
 * diagnostic naming the limit, so compile time and stack stay proportional to the input.
 */

/** Largest accepted source, in UTF-8 bytes: upstream's `MAX_CONTRACT_SUBMISSION_BYTES`. */
export const MAX_SOURCE_BYTES = 128 * 1024;
/** Upstream's text for a source over `MAX_SOURCE_BYTES` (the node's `contract.deploy` host call). */
export const SOURCE_TOO_LARGE_MESSAGE = 'Contract source exceeds the maximum allowed size.';
/**
 * Deepest accepted nesting of the syntax tree (expressions inside expressions, blocks inside
 * blocks, brackets, elif chains). Flat chains — `a and b and …`, `a < b < …`, argument and element
 * lists, statement sequences — are one level however long they are, as in Python's tree.
 */
export const MAX_SYNTAX_DEPTH = 400;

export const SOURCE_TOO_LARGE_CODE = 'xian.source.too_large';
export const TOO_DEEPLY_NESTED_CODE = 'xian.syntax.too_deeply_nested';
