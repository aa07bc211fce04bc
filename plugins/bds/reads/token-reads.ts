import type { Knex } from 'knex';
import { jsonText } from '../block/json-text.js';
import { firstRow, rows, type Row } from './columns.js';

/**
 * XSC001 token contracts and balances (bds.md §5.1): contracts flagged by the source check,
 * metadata from `<c>.metadata:token_name|token_symbol|token_logo_url`, balances from
 * `<c>.balances:<address>`. `total` is the true count (upstream's window count reads 0 on an
 * empty page; chainhost reports the real number).
 */
const METADATA_JOINS = `
  LEFT JOIN state mn ON mn.key = c.name || '.metadata:token_name'
  LEFT JOIN state ms ON ms.key = c.name || '.metadata:token_symbol'
  LEFT JOIN state ml ON ml.key = c.name || '.metadata:token_logo_url'`;

/** Metadata JSON → text: strings as they are, numbers stringified, objects as compact JSON. */
export function metadataText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') return String(value);
  return jsonText(value);
}

function withMetadata(row: Row): Row {
  return { ...row, name: metadataText(row.name), symbol: metadataText(row.symbol), logo_url: metadataText(row.logo_url) };
}

export async function tokenContracts(knex: Knex, limit: number, offset: number): Promise<{ items: Row[]; total: number }> {
  const items = rows(await knex.raw(
    `SELECT c.name AS contract, c.last_tx_hash, c.submitted_at_block, c.submitted_at,
            mn.value AS name, ms.value AS symbol, ml.value AS logo_url
     FROM contracts c ${METADATA_JOINS}
     WHERE c.xsc001 = TRUE ORDER BY c.submitted_at_block DESC, c.name ASC LIMIT ? OFFSET ?`,
    [limit, offset],
  )).map(withMetadata);
  const total = Number(firstRow(await knex.raw(`SELECT count(*) AS n FROM contracts WHERE xsc001 = TRUE`))!.n);
  return { items, total };
}

export async function tokenBalances(
  knex: Knex,
  address: string,
  limit: number,
  offset: number,
  includeZero: boolean,
): Promise<{ items: Row[]; total: number }> {
  const zero = includeZero ? '' : 'AND s.value_numeric IS DISTINCT FROM 0';
  const from = `FROM contracts c JOIN state s ON s.key = c.name || '.balances:' || ? WHERE c.xsc001 = TRUE ${zero}`;
  const items = rows(await knex.raw(
    `SELECT c.name AS contract, COALESCE(s.value_numeric::text, s.value::text) AS balance, s.last_tx_hash, s.last_block_height,
            s.updated_at, mn.value AS name, ms.value AS symbol, ml.value AS logo_url
     ${from.replace('WHERE', `${METADATA_JOINS} WHERE`)}
     ORDER BY s.last_block_height DESC, c.name ASC LIMIT ? OFFSET ?`,
    [address, limit, offset],
  )).map(withMetadata);
  const total = Number(firstRow(await knex.raw(`SELECT count(*) AS n ${from}`, [address]))!.n);
  return { items, total };
}
