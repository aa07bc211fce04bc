import type { BlockPayload } from '../block/block-payload.js';
import type { BlockSource } from '../block/chain-block-source.js';
import type { BdsDatabase } from '../database/bds-database.js';
import { prepareSchema, resetSchema } from '../database/bds-schema.js';
import type { Spool } from '../follower/spool.js';
import { WriterLock } from '../follower/writer-lock.js';
import type { BdsIndexer } from '../indexer-point.js';
import { maxIndexedHeight } from '../reads/block-reads.js';
import { BlockWriter } from '../writer/block-writer.js';
import type { Progress } from './progress.js';

/**
 * `chain-bds-reindex` (spec part 4, bds.md §9.1): rebuilds the index from a node's RPC. Default
 * range: indexed height + 1 … the source's latest height. `--reset` drops the schema and clears
 * the spool, but only once the source has passed every check: it must serve the whole range
 * (a pruned source is refused naming the missing heights), and with a trusted reference node its
 * chain id and the range's first and last block and app hashes must match. A failed check
 * changes nothing. Refuses to run while a live writer holds the database and ranges that would
 * leave a gap. Blocks are
 * fetched concurrently and written in batches, each batch one transaction running every indexer;
 * heights already indexed are checked for identity and skipped.
 */
export interface ReindexOptions {
  db: BdsDatabase;
  indexers: readonly BdsIndexer[];
  spool: Spool;
  source: BlockSource;
  /** The local node a different `--rpc-url` is checked against (block and app hashes). */
  trusted?: BlockSource | null;
  startHeight?: number;
  endHeight?: number;
  reset?: boolean;
  batchMaxBlocks?: number;
  batchMaxTxs?: number;
  concurrency?: number;
  progress?: Progress;
  log?: (line: string) => void;
  /** Chain ids of the source and of the trusted node, compared before anything changes. */
  chainIds?: { source(): Promise<string>; trusted: (() => Promise<string>) | null };
}

export interface ReindexResult {
  indexed_height: number;
  start: number;
  end: number;
  latest_height: number;
  written: number;
  skipped: number;
  txs: number;
}

export class ReindexError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReindexError';
  }
}

export async function reindex(o: ReindexOptions): Promise<ReindexResult> {
  const lock = new WriterLock(o.db);
  await lock.ensure();
  try {
    // Without --reset, creating missing tables is the only change before the checks (and harmless).
    if (!o.reset) await prepareSchema(o.db, o.indexers);
    const indexed = o.reset ? -1 : (await maxIndexedHeight(o.db.knex)) ?? -1;
    const { start, end, latest } = await checkSource(o, indexed);
    if (o.reset) {
      await resetSchema(o.db, o.indexers);
      o.spool.clear();
      o.log?.(`BDS storage reset: ${o.db.describe()}; spool ${o.spool.dir} cleared`);
      await prepareSchema(o.db, o.indexers);
    }
    if (start > end) {
      o.log?.(`nothing to reindex: the index is at ${indexed} and the source at ${latest}`);
      return { indexed_height: indexed, start, end, latest_height: latest, written: 0, skipped: 0, txs: 0 };
    }
    const writer = new BlockWriter(o.db, () => o.indexers, { beforeCommit: () => lock.verify() });
    const batchBlocks = o.batchMaxBlocks ?? 64;
    const batchTxs = o.batchMaxTxs ?? 20_000;
    const concurrency = Math.max(1, o.concurrency ?? 8);
    const result: ReindexResult = { indexed_height: indexed, start, end, latest_height: latest, written: 0, skipped: 0, txs: 0 };
    o.progress?.start(end - start + 1, 'BDS reindex', 'blocks');
    let next = start;
    let ahead: Promise<BlockPayload[]> | null = null;
    const fetchRun = (from: number) => fetchRange(o, from, Math.min(end, from + batchBlocks - 1), concurrency);
    while (next <= end) {
      const payloads: BlockPayload[] = await (ahead ?? fetchRun(next));
      const after: number = next + payloads.length;
      ahead = after <= end ? fetchRun(after) : null; // fetch the next run while this one is written
      ahead?.catch(() => undefined); // awaited next round; a write failure first must not leave it unhandled
      for (const batch of splitByTxs(payloads, batchTxs)) {
        const r = await writer.write(batch);
        result.written += r.written.length;
        result.skipped += r.skipped.length;
        result.txs += batch.reduce((n, p) => n + p.transactions.length, 0);
      }
      next = after;
      result.indexed_height = Math.max(result.indexed_height, next - 1);
      o.progress?.update(next - start, { txs: result.txs });
    }
    o.progress?.stop();
    o.spool.removeUpTo(result.indexed_height);
    return result;
  } finally {
    await lock.release();
  }
}

/**
 * Everything about the source that can make the run fail, checked before the index or the spool
 * is touched: the range it must serve (latest and earliest retained heights), and — when a
 * trusted node is the reference for another `--rpc-url` — the chain id and the block and app
 * hashes at both ends of the range.
 */
async function checkSource(o: ReindexOptions, indexed: number): Promise<{ start: number; end: number; latest: number }> {
  const latest = await o.source.latestHeight();
  const start = o.startHeight ?? indexed + 1;
  const end = Math.min(o.endHeight ?? latest, latest);
  if (o.endHeight !== undefined && o.endHeight > latest) o.log?.(`--end-height ${o.endHeight} is beyond the source's latest height ${latest}; stopping at ${latest}`);
  if (start > indexed + 1) {
    throw new ReindexError(`--start-height ${start} would leave heights ${indexed + 1}..${start - 1} missing (the index ends at ${indexed}); start at ${indexed + 1} or lower`);
  }
  if (start > end) return { start, end, latest };
  const earliest = await o.source.earliestHeight();
  const firstReal = Math.max(start, 1);
  if (firstReal < earliest && firstReal <= end) {
    throw new ReindexError(
      `the RPC source ${o.source.describe()} has pruned heights ${firstReal}..${Math.min(earliest - 1, end)} (its earliest retained block is ${earliest}); ` +
        `pruned history cannot rebuild those rows — import a BDS snapshot or use an archive node${o.reset ? '; nothing was reset' : ''}`,
    );
  }
  if (o.chainIds?.trusted) {
    const [source, trusted] = await Promise.all([o.chainIds.source(), o.chainIds.trusted()]);
    if (source !== trusted) throw new ReindexError(`the RPC source ${o.source.describe()} is chain ${source}, the local node chain ${trusted}${o.reset ? '; nothing was reset' : ''}`);
  }
  if (o.trusted && end >= 1) {
    for (const height of new Set([firstReal, end])) {
      try {
        await fetchChecked(o, height);
      } catch (err) {
        throw new ReindexError(`${(err as Error).message}${o.reset ? '; nothing was reset' : ''}`);
      }
    }
  }
  return { start, end, latest };
}

async function fetchRange(o: ReindexOptions, from: number, to: number, concurrency: number): Promise<BlockPayload[]> {
  const heights = Array.from({ length: to - from + 1 }, (_, i) => from + i);
  const out: BlockPayload[] = [];
  for (let i = 0; i < heights.length; i += concurrency) {
    const chunk = heights.slice(i, i + concurrency);
    out.push(...(await Promise.all(chunk.map((h) => fetchChecked(o, h)))));
  }
  return out;
}

async function fetchChecked(o: ReindexOptions, height: number): Promise<BlockPayload> {
  let payload: BlockPayload;
  try {
    payload = await o.source.fetch(height);
  } catch (err) {
    throw new ReindexError(`cannot fetch block ${height} from ${o.source.describe()}: ${(err as Error).message}`);
  }
  if (o.trusted && height > 0) {
    const trusted = await o.trusted.fetch(height);
    if (trusted.block_meta.hash.toUpperCase() !== payload.block_meta.hash.toUpperCase()) {
      throw new ReindexError(`block ${height} hash mismatch: source=${payload.block_meta.hash} trusted=${trusted.block_meta.hash}`);
    }
    if (trusted.app_hash.toUpperCase() !== payload.app_hash.toUpperCase()) {
      throw new ReindexError(`block ${height} app hash mismatch: source=${payload.app_hash} trusted=${trusted.app_hash}`);
    }
  }
  return payload;
}

function splitByTxs(payloads: BlockPayload[], maxTxs: number): BlockPayload[][] {
  const out: BlockPayload[][] = [];
  let current: BlockPayload[] = [];
  let txs = 0;
  for (const p of payloads) {
    if (current.length && txs + p.transactions.length > maxTxs) {
      out.push(current);
      current = [];
      txs = 0;
    }
    current.push(p);
    txs += p.transactions.length;
  }
  if (current.length) out.push(current);
  return out;
}
