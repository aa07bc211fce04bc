import pg from 'pg';
import { parseJsonExact } from 'chainhost/chain';

/**
 * How database values come back, identical on PGlite and the PostgreSQL server (bds.md §6.2):
 * BIGINT → number (bigint beyond 2^53, e.g. block times in ns), NUMERIC → plain decimal string,
 * TIMESTAMPTZ → ISO-8601 with `+00:00` (microseconds kept; a JS Date would drop them),
 * JSON/JSONB → parsed values (integers exact), the recommended choice of encoding.md §5.
 */
export const PG_OID = {
  int8: 20,
  numeric: 1700,
  timestamptz: 1184,
  json: 114,
  jsonb: 3802,
} as const;

export function parseInt8(text: string): number | bigint {
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : BigInt(text);
}

const PG_TIMESTAMP = /^(\d{4,}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?([+-]\d{2})(?::?(\d{2}))?(?::?(\d{2}))?$/;

/** PostgreSQL's `2026-01-01 00:00:10.5+00` → Python isoformat `2026-01-01T00:00:10.500000+00:00`. */
export function parseTimestamptz(text: string): string {
  const m = PG_TIMESTAMP.exec(text);
  if (!m) return text; // infinity, BC dates: pass through untouched
  const frac = m[3] ? '.' + m[3].padEnd(6, '0') : '';
  return `${m[1]}T${m[2]}${frac}${m[4]}:${m[5] ?? '00'}`;
}

/** Exact JSON: integers beyond 2^53 become bigints (JSON.parse would round them). */
export function parseJsonColumn(text: string): unknown {
  // Without a run of 16+ digits no integer literal can exceed 2^53: take the fast native path.
  return /\d{16,}/.test(text) ? parseJsonExact(text) : JSON.parse(text);
}

const PARSERS: Record<number, (text: string) => unknown> = {
  [PG_OID.int8]: parseInt8,
  [PG_OID.numeric]: (text) => text,
  [PG_OID.timestamptz]: parseTimestamptz,
  [PG_OID.json]: parseJsonColumn,
  [PG_OID.jsonb]: parseJsonColumn,
};

/** Type parsers in PGlite's `parsers` option shape. */
export function pgliteParsers(): Record<number, (text: string) => unknown> {
  return { ...PARSERS };
}

/** A node-postgres `types` object (per client, never the process-global registry). */
export function pgCustomTypes(): { getTypeParser: (oid: number, format?: string) => (text: string) => unknown } {
  return {
    getTypeParser(oid: number, format?: string) {
      const own = PARSERS[oid];
      if (own && (format === undefined || format === 'text')) return own;
      return pg.types.getTypeParser(oid, (format ?? 'text') as 'text') as (text: string) => unknown;
    },
  };
}
