import { ChainDecimal } from './decimal.js';

/**
 * What a transaction cost in the native currency (contracts.md §5): the sender pays
 * `chi_used / chi_rate`, where `chi_rate` is `chi_cost.S:value` (chi per native token). The
 * chi supplied beyond `chi_used` is never charged: `refunded` is that part in currency and
 * `refunded_share` its fraction of the chi supplied. On a `free_metered` chain nothing is charged
 * at all; the figures are then what the metering would have cost.
 */
export interface TxFee {
  /** Chi per native token (`chi_cost.S:value`). */
  chi_rate: string;
  /** chi_used / chi_rate, in the native currency. */
  fee: string;
  /** (chi_supplied − chi_used) / chi_rate: supplied but not charged (fee + refunded = the most it could have cost). */
  refunded: string;
  /** (chi_supplied − chi_used) / chi_supplied, 0 to 1. */
  refunded_share: string;
}

/** The chain's state key of the chi rate. */
export const CHI_RATE_KEY = 'chi_cost.S:value';

export function txFee(chiUsed: bigint, chiSupplied: bigint, chiRate: ChainDecimal): TxFee | null {
  if (!chiRate.gt(0n) || chiSupplied <= 0n) return null;
  const used = chiUsed > chiSupplied ? chiSupplied : chiUsed;
  const inCurrency = (chi: bigint) => ChainDecimal.from(chi).div(chiRate).toString();
  return {
    chi_rate: chiRate.toString(),
    fee: inCurrency(used),
    refunded: inCurrency(chiSupplied - used),
    refunded_share: ChainDecimal.from(chiSupplied - used).div(ChainDecimal.from(chiSupplied)).toString(),
  };
}
