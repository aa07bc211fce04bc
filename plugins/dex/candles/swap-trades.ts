import type { JsonValue } from 'chainhost/chain';

/**
 * Swap events → trades (dex.md §10 "Per trade"): the numeric projection of the four amounts
 * (bds.md §2.13), the market field `pair` of `data_indexed` (a number or its digits), price =
 * token1 per token0 = amount1Out / amount0In when both > 0, else amount1In / amount0Out when
 * both > 0, else no trade; volume_token0 = amount0In if non-zero else amount0Out (likewise
 * token1). The division itself happens in PostgreSQL NUMERIC when the row is written.
 */

const NUMERIC_TEXT = /^-?[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

/** bds.md §2.13: number → it; decimal text → it; {__fixed__}/{__big_int__} → their text; else null. */
export function numericText(value: JsonValue | undefined): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'string') return NUMERIC_TEXT.test(value) ? value : null;
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const inner = (value as Record<string, JsonValue>).__fixed__ ?? (value as Record<string, JsonValue>).__big_int__;
    if (inner !== undefined) return numericText(inner);
  }
  return null;
}

function positive(text: string | null): boolean {
  return text !== null && !/^-/.test(text) && /[1-9]/.test(text.replace(/[eE].*$/, ''));
}

export interface SwapTrade {
  pairId: number;
  /** Numerator and denominator of the price (token1 per token0), numeric texts. */
  priceNumerator: string;
  priceDenominator: string;
  volume0: string;
  volume1: string;
}

export function pairIdOf(dataIndexed: JsonValue | undefined): number | null {
  if (!dataIndexed || typeof dataIndexed !== 'object' || Array.isArray(dataIndexed)) return null;
  const p = (dataIndexed as Record<string, JsonValue>).pair;
  const n = typeof p === 'number' ? p : typeof p === 'bigint' ? Number(p) : typeof p === 'string' && /^\d+$/.test(p) ? Number(p) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

export function swapTrade(dataIndexed: JsonValue | undefined, data: JsonValue | undefined): SwapTrade | null {
  const pairId = pairIdOf(dataIndexed);
  if (pairId === null || !data || typeof data !== 'object' || Array.isArray(data)) return null;
  const d = data as Record<string, JsonValue>;
  const a0In = numericText(d.amount0In);
  const a1In = numericText(d.amount1In);
  const a0Out = numericText(d.amount0Out);
  const a1Out = numericText(d.amount1Out);
  let priceNumerator: string;
  let priceDenominator: string;
  if (positive(a0In) && positive(a1Out)) [priceNumerator, priceDenominator] = [a1Out!, a0In!];
  else if (positive(a1In) && positive(a0Out)) [priceNumerator, priceDenominator] = [a1In!, a0Out!];
  else return null;
  const nonZero = (x: string | null) => positive(x) || (x !== null && /^-/.test(x) && /[1-9]/.test(x));
  const volume0 = nonZero(a0In) ? a0In! : a0Out ?? '0';
  const volume1 = nonZero(a1In) ? a1In! : a1Out ?? '0';
  return { pairId, priceNumerator, priceDenominator, volume0, volume1 };
}
