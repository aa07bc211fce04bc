/**
 * Size limits. The first block is upstream's (xian-vm-core interpreter.rs); the second is ours:
 * upstream has no bound there (a contract could grow a string by concatenation until the node
 * runs out of memory, or recurse until the native stack overflows), so this VM stops such a
 * contract with the error texts below instead of exhausting the process. Both bounds are far
 * beyond what a contract can do within a transaction's chi budget in any real use.
 */
export const MAX_SEQUENCE_LENGTH = 1024 * 128;
export const MAX_BINARY_ALLOCATION_BYTES = 1024 * 128;
export const MAX_INTEGER_BITS = BigInt(MAX_BINARY_ALLOCATION_BYTES * 8);
export const MAX_INT_STRING_CHARS = 8192;
export const MAX_MODULAR_POW_EXPONENT_BITS = 8192n;
export const MAX_HASH_DIMENSIONS = 16;
export const MAX_STORAGE_KEY_SIZE = 1024;

/**
 * Ours: longest string/bytes any operation may build (UTF-16 units / bytes), and most items a
 * list/tuple/dict/set may hold. 8× upstream's repetition cap: a value past them cannot be
 * stored (128 KiB write cap) and costs over a thousand chi to return, while one operation over
 * it (a replace, a membership test) runs in time out of all proportion to its constant chi.
 */
export const MAX_CONCAT_LENGTH = 1024 * 1024;
export const MAX_CONTAINER_LENGTH = 1024 * 1024;
/**
 * Ours: the most bytes of strings, bytes, containers and big ints one transaction may build in
 * total (counted as built, see alloc.ts), so that many values under the caps above cannot
 * exhaust the node's memory together.
 */
export const MAX_TRANSACTION_ALLOCATION_BYTES = 512 * 1024 * 1024;
/**
 * Ours: the longest result (its JSON text, as metered) a transaction may return. A value that
 * holds one container many times over is small in memory but its text is not, and the node
 * writes that text into the receipt.
 */
export const MAX_RESULT_JSON_BYTES = 16 * 1024 * 1024;
/** Ours: deepest nesting of contract function calls (module functions and cross-contract calls). */
export const MAX_CALL_DEPTH = 256;
/** Ours: deepest nesting of IR nodes accepted when a module is loaded. */
export const MAX_IR_DEPTH = 512;

export const ALLOCATION_LIMIT_ERROR = 'value exceeds the maximum allowed allocation size';
export const CALL_DEPTH_ERROR = `maximum call depth of ${MAX_CALL_DEPTH} exceeded`;
