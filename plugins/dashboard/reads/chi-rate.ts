import { ChainDecimal, CHI_RATE_KEY, txFee, type JsonValue, type TxFee } from 'chainhost/chain';
import type { ReadContext } from './node-targets.js';
import { optionalAbciValue } from './optional-value.js';

/** The native token's contract: fees are paid in it. */
export const NATIVE_TOKEN = 'currency';

/**
 * `chi_cost.S:value` (chi per native token) as the node holds it now; null when unset or not a
 * positive decimal (the fee is then not shown rather than guessed).
 */
export async function chiRate(r: ReadContext): Promise<ChainDecimal | null> {
  const value = await optionalAbciValue(r, `/get/${CHI_RATE_KEY}`);
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value
    : value && typeof value === 'object' && !Array.isArray(value) && typeof value.__fixed__ === 'string' ? value.__fixed__ : null;
  if (text === null || !ChainDecimal.isDecimalText(text)) return null;
  const rate = ChainDecimal.parse(text);
  return rate.gt(0n) ? rate : null;
}

/** What the transaction cost in the native token (contracts.md §5.2: chi_used / chi_rate), or null when a figure is missing. */
export function feeOf(chiUsed: JsonValue | undefined, chiSupplied: JsonValue | undefined, rate: ChainDecimal | null): TxFee | null {
  const used = integer(chiUsed);
  const supplied = integer(chiSupplied);
  if (rate === null || used === null || supplied === null) return null;
  return txFee(used, supplied, rate);
}

function integer(value: JsonValue | undefined): bigint | null {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'string' && /^[0-9]{1,20}$/.test(value)) return BigInt(value);
  return null;
}
