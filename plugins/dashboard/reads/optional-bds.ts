import type { JsonValue } from 'chainhost/chain';
import { ApiError } from 'chainhost/plugin';
import { bdsValue } from './bds-value.js';
import type { ReadContext } from './node-targets.js';

/** An indexed read one section of a page needs: its value, or why it is missing (no BDS). */
export type BdsSection<T> = { ok: true; value: T } | { ok: false; reason: string };

/**
 * A BDS read that a page can do without: a page made mostly of node reads (an address's
 * balance, a pair's reserves) still renders when BDS is absent, and the section that needed it
 * says so plainly. Node outages and timeouts still fail the page.
 */
export async function optionalBds<T>(r: ReadContext, path: string, what: string, shape: (value: JsonValue) => T): Promise<BdsSection<T>> {
  try {
    return { ok: true, value: shape(await bdsValue(r, path, what)) };
  } catch (err) {
    if (err instanceof ApiError && err.code === 'bds_unavailable') return { ok: false, reason: err.message };
    throw err;
  }
}
