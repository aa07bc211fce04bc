import { type ParsedQueryPath, QueryPathError } from 'chainhost/plugin';

/**
 * `/dex_candles/<market_id>[/interval=][/limit=][/offset=][/start=][/end=][/source=][/contract=]`
 * parameters exactly as dex.md §10 reads them: interval `<int>[s|m|h|d|w]` lower-cased first
 * (so `1M` is one minute), bare integers are seconds, invalid → 60, clamped to 1…604800;
 * limit default 100 clamped to 0…1000; start/end unix seconds or ISO-8601 (naive = UTC),
 * invalid ones ignored; the only source is `xian_pairs_v1`.
 */

export const CANDLE_SOURCE = 'xian_pairs_v1';
export const MAX_INTERVAL_SECONDS = 604_800;

export interface CandleQuery {
  marketId: string;
  pairId: number;
  intervalSeconds: number;
  limit: number;
  offset: number;
  /** Unix seconds (fractional allowed). */
  start: number | null;
  end: number | null;
  source: string;
  contract: string;
}

const UNIT: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

export function parseInterval(raw: string | undefined): number {
  if (raw === undefined) return 60;
  const m = /^\s*(\d+)\s*([smhdw]?)\s*$/.exec(raw.toLowerCase());
  if (!m) return 60;
  const seconds = Number(m[1]) * UNIT[m[2] || 's']!;
  if (!Number.isFinite(seconds)) return MAX_INTERVAL_SECONDS;
  return Math.min(MAX_INTERVAL_SECONDS, Math.max(1, seconds));
}

function intParam(raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || !/^-?\d+$/.test(raw.trim())) return fallback;
  return Math.min(max, Math.max(min, Number(raw)));
}

/** Unix seconds (digits with an optional fraction) or ISO-8601 (`Z` or offset; naive = UTC); null when invalid. */
export function parseTimeBound(raw: string | undefined): number | null {
  if (raw === undefined || raw === '') return null;
  const t = raw.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return Number(t);
  const iso = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/i.exec(t);
  if (!iso) return null;
  const naive = !iso[4];
  const ms = Date.parse(naive ? `${t.replace(' ', 'T')}${iso[1] ? '' : 'T00:00:00'}Z` : t.replace(' ', 'T'));
  return Number.isFinite(ms) ? ms / 1000 : null;
}

export function parseCandleQuery(q: ParsedQueryPath, defaultContract: string): CandleQuery {
  const marketId = q.parts[0];
  if (marketId === undefined || marketId.includes('=') || !/^\d+$/.test(marketId) || Number(marketId) < 1 || !Number.isSafeInteger(Number(marketId))) {
    throw new QueryPathError('market id must be positive');
  }
  const source = q.params.source ?? CANDLE_SOURCE;
  if (source !== CANDLE_SOURCE) throw new QueryPathError(`unknown candle source ${JSON.stringify(source)}; the only source is ${CANDLE_SOURCE}`);
  return {
    marketId,
    pairId: Number(marketId),
    intervalSeconds: parseInterval(q.params.interval),
    limit: intParam(q.params.limit, 100, 0, 1000),
    offset: intParam(q.params.offset, 0, 0, Number.MAX_SAFE_INTEGER),
    start: parseTimeBound(q.params.start),
    end: parseTimeBound(q.params.end),
    source,
    contract: q.params.contract || defaultContract,
  };
}
