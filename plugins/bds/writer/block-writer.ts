import type { Knex } from 'knex';
import type { BdsDatabase } from '../database/bds-database.js';
import type { BdsIndexer } from '../indexer-point.js';
import type { BlockPayload } from '../block/block-payload.js';
import { normalizeBlock } from '../block/normalize-block.js';
import { writeCoreRows } from './core-rows.js';

/**
 * Persists a contiguous run of blocks in ONE database transaction: the identity check of
 * heights already present, the core rows, then every indexer per block in height order. Either
 * the whole run commits or nothing does, so a crash or a database error never leaves a partial
 * block; re-writing a committed block is a no-op (same hash and app hash) or an error (fork).
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

export class BlockWriter {
  constructor(
    private readonly db: BdsDatabase,
    private readonly indexers: () => readonly BdsIndexer[],
  ) {}

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
      const blocks = await writeCoreRows(trx, fresh.map(normalizeBlock));
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
      return { written: blocks.map((b) => b.height), skipped };
    });
  }
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
