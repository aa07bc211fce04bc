import type { JsonValue } from 'chainhost/chain';
import type { ApiError } from 'chainhost/plugin';
import { nodeError } from '../http/node-errors.js';
import { abciValueAsJson } from './abci-source.js';
import type { ReadContext } from './node-targets.js';

export interface Monitoring {
  perf: { enabled: boolean; snapshot?: JsonValue; error?: string };
  bds: { enabled: boolean; status?: JsonValue };
  unconfirmed_txs: JsonValue;
}

/**
 * `/api/monitoring` (dashboard.md §4.2): execution profiling, BDS health and the mempool, read
 * in parallel; each part reports its own failure. Only when the node cannot be reached at all
 * does the route fail (502/504) instead of answering three error stubs.
 */
export async function monitoring(r: ReadContext): Promise<Monitoring> {
  const failures: ApiError[] = [];
  const capture = (what: string) => (err: unknown): { error: string } => {
    const mapped = nodeError(err, what);
    failures.push(mapped);
    return { error: mapped.message };
  };
  const [perf, bds, mempool] = await Promise.all([
    r.abci.query('/perf_status').then((a) => a.decoded, capture('abci_query /perf_status')),
    r.abci.query('/bds_status').then((a) => a.decoded, capture('abci_query /bds_status')),
    r.node.unconfirmedTxs(undefined, r.call).then((u) => u as unknown as JsonValue, capture('unconfirmed_txs')),
  ]);
  const unreachable = failures.filter((f) => f.status === 502 || f.status === 504);
  if (unreachable.length === 3) throw unreachable[0];

  let perfPart: Monitoring['perf'];
  if ('error' in perf) perfPart = { enabled: false, error: perf.error };
  else if (perf.code !== 0 || !perf.value) perfPart = { enabled: false };
  else {
    const snapshot = abciValueAsJson(perf);
    const enabled = isObject(snapshot) && snapshot.enabled === true;
    perfPart = { enabled, snapshot };
  }

  let bdsPart: Monitoring['bds'] = { enabled: false };
  if (!('error' in bds) && bds.code === 0) {
    const status = abciValueAsJson(bds);
    if (isObject(status)) bdsPart = { enabled: true, status };
  }
  return { perf: perfPart, bds: bdsPart, unconfirmed_txs: mempool };
}

function isObject(value: JsonValue): value is { [key: string]: JsonValue } {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
