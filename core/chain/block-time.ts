/**
 * A CometBFT block time as the block index keeps it (bds.md §9.1): nanoseconds since the epoch
 * truncated to microseconds, and Python's `datetime.isoformat()` text of it. Shared by the
 * indexer and by the tools that read blocks from the node when there is no index, so a block
 * looks the same from either source.
 */

/** `2026-01-01T00:00:04.123456789Z` → ns since the epoch truncated to µs, and the ISO text. Throws on text that is not RFC 3339. */
export function blockTimeOf(rfc3339: string): { nanos: bigint; iso: string } {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})$/.exec(rfc3339.trim());
  if (!m) throw new Error(`block time ${JSON.stringify(rfc3339)} is not RFC 3339`);
  const seconds = Date.parse(`${m[1]}T${m[2]}${m[4] === 'Z' ? 'Z' : m[4]}`);
  if (Number.isNaN(seconds)) throw new Error(`block time ${JSON.stringify(rfc3339)} is not a valid date`);
  const micros = (m[3] ?? '').padEnd(6, '0').slice(0, 6);
  const nanos = BigInt(seconds) * 1_000_000n + BigInt(micros) * 1000n;
  return { nanos, iso: isoFromNanos(nanos) };
}

/** Python `datetime.isoformat()` of a UTC time: `2026-01-01T00:00:04.123456+00:00` (no fraction when µs = 0). */
export function isoFromNanos(nanos: bigint): string {
  const micros = nanos / 1000n;
  const ms = Number(micros / 1000n);
  const base = new Date(ms).toISOString().slice(0, 19);
  const frac = micros % 1_000_000n;
  return `${base}${frac ? '.' + frac.toString().padStart(6, '0') : ''}+00:00`;
}
