/**
 * JSON text of a value that may hold bigints: JSONB integers beyond 2^53 arrive as bigints
 * (exact), and must leave as bare digits, which `JSON.stringify` refuses. The common case
 * (no bigint) stays on the native fast path.
 */
export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (err) {
    if (!(err instanceof TypeError) || !/BigInt/i.test(err.message)) throw err;
  }
  return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? BIGINT_MARK + v.toString() : v))
    .replace(BIGINT_PATTERN, '$1');
}

// A string no user value can contain by chance: NUL (written as \u0000) plus a random tag.
const BIGINT_MARK = `\u0000bigint:${Math.random().toString(36).slice(2)}:`;
const BIGINT_PATTERN = new RegExp(`"\\\\u0000${BIGINT_MARK.slice(1)}(-?\\d+)"`, 'g');
