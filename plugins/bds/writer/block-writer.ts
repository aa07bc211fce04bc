import type { Knex } from 'knex';
import type { BdsDatabase } from '../database/bds-database.js';
import type { BdsIndexer, IndexedBlock } from '../indexer-point.js';
import type { BlockPayload } from '../block/block-payload.js';
import { normalizeBlock, type NormalizedBlock } from '../block/normalize-block.js';
import { vouchFreshHeights } from './bulk-insert.js';
import { writeCoreRows } from './core-rows.js';

/**
 * Persists a contiguous run of blocks in ONE database transaction: the identity check of
 * heights already present, the core rows, then every indexer per block in height order. Either
 * the whole run commits or nothing does, so a crash or a database error never leaves a partial
 * block; re-writing a committed block is a no-op (same hash and app hash) or an error (fork).
 *
 * Heights found new are written with COPY (the bulk of catch-up cost is then PostgreSQL's own
 * insert and index work, as for a raw COPY); the idempotent INSERTs remain the path for
 * everything else. Commits stay synchronous: a catch-up batch commits once per up to
 * `batchMaxBlocks` blocks, so the WAL flush is a sliver of its time, while an asynchronous
 * commit could lose batches whose spool files are already deleted.
 */
export class BlockIdentityMismatchError extends Error {
  constructor(readonly height: number, stored: { block_hash: string; app_hash: string }, incoming: { hash: string; app_hash: string }) {
    super(
      `BDS block identity mismatch at height ${height}: stored block_hash=${stored.block_hash} app_hash=${stored.app_hash}, ` +
        `source block_hash=${incoming.hash} app_hash=${incoming.app_hash}; the index belongs to another chain or fork — reset it (chain-bds-reindex --reset)`,
    );
    this.name = 'BlockIdentityMismatchError';
  }
}

export class BlockParentMismatchError extends Error {
  constructor(readonly height: number, stored: string, parent: string) {
    super(
      `BDS block ${height} does not extend the indexed chain: its parent hash is ${parent} but the indexed block ${height - 1} is ${stored}; ` +
        'the source is another chain or fork than the index — reset the index (chain-bds-reindex --reset) or point BDS at the right node',
    );
    this.name = 'BlockParentMismatchError';
  }
}

export class BlockGapError extends Error {
  constructor(readonly expected: number, readonly got: number) {
    super(`BDS blocks must be written in contiguous height order: expected height ${expected}, got ${got} (heights ${expected}..${got - 1} would be missing)`);
    this.name = 'BlockGapError';
  }
}

export interface WriteResult {
  written: number[];
  /** Heights already present with the same identity. */
  skipped: number[];
}

export interface BlockWriterOptions {
  /**
   * New heights carrying at least this many transactions in one write go through COPY. A COPY
   * costs a round trip more per table than an INSERT, which only pays off on many rows: a live
   * block of a few transactions keeps the INSERTs.
   */
  copyMinTransactions?: number;
  /**
   * Runs inside the write transaction just before it commits; a throw rolls the write back.
   * The writer lock's check: a writer that lost its lock must not commit (issue #19).
   */
  beforeCommit?(): Promise<void>;
}

export class BlockWriter {
  private readonly copyMinTransactions: number;
  private readonly beforeCommit: (() => Promise<void>) | null;

  constructor(
    private readonly db: BdsDatabase,
    private readonly indexers: () => readonly BdsIndexer[],
    options: BlockWriterOptions = {},
  ) {
    this.copyMinTransactions = options.copyMinTransactions ?? 50;
    this.beforeCommit = options.beforeCommit ?? null;
  }

  async write(payloads: readonly BlockPayload[]): Promise<WriteResult> {
    if (!payloads.length) return { written: [], skipped: [] };
    const sorted = [...payloads].sort((a, b) => a.block_meta.height - b.block_meta.height);
    for (let i = 1; i < sorted.length; i++) {
      const prev = sorted[i - 1]!.block_meta.height;
      const h = sorted[i]!.block_meta.height;
      if (h !== prev + 1) throw new BlockGapError(prev + 1, h);
    }
    const heights = sorted.map((p) => p.block_meta.height);
    return this.db.knex.transaction(async (trx) => {
      const existing = new Map<number, { block_hash: string; app_hash: string }>();
      const found = await trx.raw(`SELECT height, block_hash, app_hash FROM blocks WHERE height = ANY(?::bigint[])`, [heights]);
      for (const row of found.rows as Array<{ height: number; block_hash: string; app_hash: string }>) existing.set(Number(row.height), row);
      const fresh: BlockPayload[] = [];
      const skipped: number[] = [];
      for (const payload of sorted) {
        const h = payload.block_meta.height;
        const stored = existing.get(h);
        if (!stored) {
          fresh.push(payload);
          continue;
        }
        const incoming = { hash: payload.block_meta.hash, app_hash: payload.app_hash };
        if (!sameHash(stored.block_hash, incoming.hash) || !sameHash(stored.app_hash, incoming.app_hash)) {
          throw new BlockIdentityMismatchError(h, stored, incoming);
        }
        skipped.push(h);
      }
      if (!fresh.length) return { written: [], skipped };
      const top = (await trx.raw(`SELECT max(height) AS height FROM blocks`)).rows[0] as { height: number | null };
      const expected = top.height === null ? 0 : Number(top.height) + 1;
      if (fresh[0]!.block_meta.height !== expected) throw new BlockGapError(expected, fresh[0]!.block_meta.height);
      await checkParents(trx, fresh);
      if (fresh[0]!.block_meta.height === 0 && fresh[0]!.block_meta.chain_id) {
        // The chain the index belongs to: snapshots and reindex check their source against it.
        await trx.raw(
          `INSERT INTO bds_meta (key, value, updated_at) VALUES ('chain_id', ?, now()) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at`,
          [fresh[0]!.block_meta.chain_id],
        );
      }
      const normalized = fresh.map(normalizeBlock);
      const blocks = await this.writeFresh(trx, normalized);
      await this.beforeCommit?.();
      return { written: blocks.map((b) => b.height), skipped };
    });
  }

  /**
   * The rows of new heights: COPY where a table allows it (see `copyWhenFresh`) when the run is
   * large enough, inside a savepoint; a unique violation there can only be data the idempotent INSERTs would have
   * skipped (a transaction hash already indexed at an earlier height), so the batch is redone
   * with them instead.
   */
  private async writeFresh(trx: Knex.Transaction, normalized: readonly NormalizedBlock[]): Promise<IndexedBlock[]> {
    const txs = normalized.reduce((n, b) => n + b.transactions.length, 0);
    if (txs < this.copyMinTransactions) return this.writeRows(trx, normalized);
    await trx.raw('SAVEPOINT bds_fresh_rows');
    vouchFreshHeights(trx, true);
    try {
      return await this.writeRows(trx, normalized);
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      vouchFreshHeights(trx, false);
      await trx.raw('ROLLBACK TO SAVEPOINT bds_fresh_rows');
      return await this.writeRows(trx, normalized);
    } finally {
      vouchFreshHeights(trx, false);
    }
  }

  private async writeRows(trx: Knex.Transaction, normalized: readonly NormalizedBlock[]): Promise<IndexedBlock[]> {
    const blocks = await writeCoreRows(trx, normalized);
    for (const indexer of this.indexers()) {
      if (indexer.applyBatch) {
        try {
          await indexer.applyBatch(blocks, trx);
        } catch (err) {
          throw new Error(`BDS indexer ${indexer.name} failed at heights ${blocks[0]!.height}..${blocks[blocks.length - 1]!.height}: ${(err as Error).message}`, { cause: err });
        }
        continue;
      }
      for (const block of blocks) {
        try {
          await indexer.apply(block, trx);
        } catch (err) {
          throw new Error(`BDS indexer ${indexer.name} failed at height ${block.height}: ${(err as Error).message}`, { cause: err });
        }
      }
    }
    return blocks;
  }
}

/** PostgreSQL's unique_violation (23505), also when an indexer wrapped it. */
function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/** Each new block's parent hash (when the source gives one) must be the hash of the block before it. */
async function checkParents(trx: Knex.Transaction, fresh: readonly BlockPayload[]): Promise<void> {
  let previous: string | null = null;
  const first = fresh[0]!.block_meta.height;
  if (first > 1 && fresh[0]!.parent_hash) {
    const row = (await trx.raw(`SELECT block_hash FROM blocks WHERE height = ?`, [first - 1])).rows[0] as { block_hash: string } | undefined;
    previous = row?.block_hash ?? null;
  }
  for (const p of fresh) {
    const h = p.block_meta.height;
    if (p.parent_hash && previous && h > 1 && !sameHash(previous, p.parent_hash)) throw new BlockParentMismatchError(h, previous, p.parent_hash);
    previous = p.block_meta.hash;
  }
}

function sameHash(a: string, b: string): boolean {
  return a.toUpperCase() === b.toUpperCase();
}
