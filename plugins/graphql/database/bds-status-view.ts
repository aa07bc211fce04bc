import type { GraphqlRequestContext } from '../execution/request-context.js';
import { Sql, quoteIdent } from '../sql/sql-fragment.js';
import type { BdsStatusView } from '../schema/bds-status-type.js';
import type { BdsSource } from './bds-source.js';

/**
 * `bdsStatus`: the indexed height is read from the database (at most STATUS_TTL_MS old, see
 * sharedStatus); worker fields come from the BDS worker when it runs in this process.
 */
export async function bdsStatusView(ctx: GraphqlRequestContext, source: BdsSource): Promise<BdsStatusView> {
  const s = quoteIdent(ctx.dbSchema);
  const [row] = await ctx.sql.rows(Sql.raw(
    `SELECT (SELECT value FROM ${s}."bds_meta" WHERE key = 'schema_version') AS schema_version, b.height, b.block_hash, b.block_time_iso
     FROM (SELECT 1) AS one LEFT JOIN LATERAL (SELECT height, block_hash, block_time_iso FROM ${s}."blocks" ORDER BY height DESC LIMIT 1) AS b ON TRUE`,
  ));
  const worker = source.status ? await source.status().catch(() => null) : null;
  const num = (v: unknown) => (v === null || v === undefined ? null : (v as string | number | bigint));
  return {
    indexedHeight: num(row?.height),
    indexedBlockHash: (row?.block_hash as string | null) ?? null,
    indexedBlockTime: (row?.block_time_iso as string | null) ?? null,
    schemaVersion: (row?.schema_version as string | null) ?? null,
    workerRunning: typeof worker?.worker_running === 'boolean' ? worker.worker_running : null,
    currentBlockHeight: num(worker?.current_block_height),
    heightLag: num(worker?.height_lag),
    readReplicaLag: num((worker?.read_replica as { lag_blocks?: unknown } | null | undefined)?.lag_blocks),
    catchingUp: typeof worker?.catching_up === 'boolean' ? worker.catching_up : null,
    alerts: Array.isArray(worker?.alerts) ? worker.alerts : null,
  };
}

/** How long one reading of the status serves further requests. */
export const STATUS_TTL_MS = 250;

/**
 * `compute` shared: while a reading runs every caller waits for that one; once done it serves
 * callers for `ttlMs`, then the next caller starts a new one. A failed reading is not kept.
 * Polling for read-after-write sees a new height at most `ttlMs` late.
 */
export function sharedStatus<C>(compute: (ctx: C) => Promise<BdsStatusView>, ttlMs = STATUS_TTL_MS): (ctx: C) => Promise<BdsStatusView> {
  let current: { value: Promise<BdsStatusView>; doneAt: number | null } | null = null;
  return (ctx) => {
    if (current && (current.doneAt === null || Date.now() - current.doneAt < ttlMs)) return current.value;
    const entry: { value: Promise<BdsStatusView>; doneAt: number | null } = { value: compute(ctx), doneAt: null };
    current = entry;
    entry.value.then(
      () => { entry.doneAt = Date.now(); },
      () => { if (current === entry) current = null; },
    );
    return entry.value;
  };
}
