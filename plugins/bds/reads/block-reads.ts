import type { Knex } from 'knex';
import { BLOCK_FIELDS, firstRow, rows, type BlockRef, type Row } from './columns.js';

/** Blocks, newest first (`/blocks`), and single blocks by height or hash. Hashes match in any case. */
export async function listBlocks(knex: Knex, limit: number, offset: number): Promise<Row[]> {
  return rows(await knex.raw(`SELECT ${BLOCK_FIELDS} FROM blocks ORDER BY height DESC LIMIT ? OFFSET ?`, [limit, offset]));
}

export async function blockByHeight(knex: Knex, height: number): Promise<Row | null> {
  return firstRow(await knex.raw(`SELECT ${BLOCK_FIELDS} FROM blocks WHERE height = ?`, [height]));
}

export async function blockByHash(knex: Knex, hash: string): Promise<Row | null> {
  return firstRow(await knex.raw(`SELECT ${BLOCK_FIELDS} FROM blocks WHERE block_hash IN (?, upper(?)) LIMIT 1`, [hash, hash]));
}

/** The height a block reference names, or null when no such block is indexed. */
export async function resolveBlockRef(knex: Knex, ref: BlockRef): Promise<number | null> {
  if ('height' in ref) return ref.height;
  const r = firstRow(await knex.raw(`SELECT height FROM blocks WHERE block_hash IN (?, upper(?)) LIMIT 1`, [ref.hash, ref.hash]));
  return r ? Number(r.height) : null;
}

/** `indexed` of `/bds_status` (bds.md §7): counts and the latest block, in one statement. */
export async function indexedSummary(knex: Knex): Promise<Row> {
  const r = await knex.raw(`
    SELECT (SELECT count(*) FROM blocks) AS indexed_block_count,
           (SELECT count(*) FROM transactions) AS indexed_tx_count,
           b.height AS indexed_height, b.block_hash AS indexed_block_hash, b.block_time AS indexed_block_time,
           b.block_time_iso AS indexed_block_time_iso, b.app_hash AS indexed_app_hash
    FROM (SELECT 1) AS one LEFT JOIN LATERAL (SELECT * FROM blocks ORDER BY height DESC LIMIT 1) b ON true`);
  return firstRow(r)!;
}

export async function maxIndexedHeight(knex: Knex): Promise<number | null> {
  const r = firstRow(await knex.raw(`SELECT max(height) AS height FROM blocks`));
  return r?.height === null || r?.height === undefined ? null : Number(r.height);
}
