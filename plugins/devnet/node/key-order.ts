import { compareCodePoints } from 'chainhost/chain';

/**
 * State keys are ordered by their UTF-8 bytes (abci-query.md §5, the LMDB scan order), which is
 * code-point order — not JS `<` (UTF-16 code units).
 */
export const compareKeys: (a: string, b: string) => number = compareCodePoints;

/** Index of the first element of the sorted `keys` that is > `key` (or ≥ when `inclusive`). */
export function lowerBound(keys: readonly string[], key: string, inclusive: boolean): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = compareKeys(keys[mid]!, key);
    if (c < 0 || (c === 0 && !inclusive)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
