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

/** `_`, `%` and `\` are LIKE wildcards/escapes; contract names contain `_`. */
function likePrefix(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`) + '%';
}

/**
 * The holders of one token, largest balance first (the explorer's token page): the current
 * `<contract>.balances:<address>` rows with a positive numeric value. `holders` counts them and
 * `indexed_supply` is their exact NUMERIC sum (what the balances add up to, whatever the
 * contract's own `total_supply` metadata says).
 */
export async function tokenHolders(knex: Knex, contract: string, limit: number, offset: number): Promise<{ items: Row[]; holders: number; indexed_supply: string }> {
  const prefix = `${contract}.balances:`;
  const from = `FROM state WHERE key LIKE ? ESCAPE '\\' AND strpos(substr(key, ?), ':') = 0 AND value_numeric > 0`;
  const bindings = [likePrefix(prefix), prefix.length + 1];
  const items = rows(await knex.raw(
    `SELECT substr(key, ?) AS address, value_numeric::text AS balance, last_tx_hash, last_block_height, updated_at
     ${from} ORDER BY value_numeric DESC, key ASC LIMIT ? OFFSET ?`,
    [prefix.length + 1, ...bindings, limit, offset],
  ));
  const totals = firstRow(await knex.raw(`SELECT count(*) AS n, COALESCE(sum(value_numeric), 0)::text AS supply ${from}`, bindings))!;
  return { items, holders: Number(totals.n), indexed_supply: String(totals.supply) };
}
