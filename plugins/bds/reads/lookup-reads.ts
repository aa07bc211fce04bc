import type { Knex } from 'knex';
import { rows, type Row } from './columns.js';

/**
 * What the explorer's search box and its address list need from the index: matches of a
 * partial hash or a token's symbol or name, and every address that holds or received value.
 */

/** The native token's contract (its balances count as value like any XSC001 token's). */
const NATIVE = 'currency';

/** `_`, `%` and `\` are LIKE wildcards/escapes; contract names contain `_`. */
function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Transactions, blocks and addresses whose hash or address starts with `prefix` (hex, any
 * case), at most `limit` of each: a range scan on each primary key, so the work is the matches,
 * not the table.
 */
export async function hashPrefixMatches(knex: Knex, prefix: string, limit: number): Promise<Row[]> {
  const upper = prefix.toUpperCase();
  const lower = prefix.toLowerCase();
  const [txs, blocks, addresses] = await Promise.all([
    knex.raw(`SELECT 'tx' AS kind, hash AS id, block_height, contract, function FROM transactions
      WHERE hash >= ? AND hash < ? AND hash LIKE ? ORDER BY hash LIMIT ?`, [upper, `${upper}G`, `${upper}%`, limit]),
    knex.raw(`SELECT 'block' AS kind, block_hash AS id, height AS block_height FROM blocks
      WHERE block_hash >= ? AND block_hash < ? AND block_hash LIKE ? ORDER BY block_hash LIMIT ?`, [upper, `${upper}G`, `${upper}%`, limit]),
    knex.raw(`SELECT 'address' AS kind, address AS id, last_block_height AS block_height FROM addresses
      WHERE address >= ? AND address < ? AND address LIKE ? ORDER BY address LIMIT ?`, [lower, `${lower}g`, `${likeEscape(lower)}%`, limit]),
  ]);
  return [...rows(txs), ...rows(blocks), ...rows(addresses)];
}

/**
 * XSC001 tokens whose symbol or name equals `text` (case-insensitive), then those whose symbol
 * or name starts with it; at most `limit`. Scans the token contracts (the partial index on
 * `xsc001`) with their two metadata rows.
 */
export async function tokenMatches(knex: Knex, text: string, limit: number): Promise<Row[]> {
  const t = text.toLowerCase();
  const starts = `${likeEscape(t)}%`;
  return rows(await knex.raw(
    `SELECT 'token' AS kind, c.name AS id, mn.value #>> '{}' AS name, ms.value #>> '{}' AS symbol,
            (lower(ms.value #>> '{}') = ? OR lower(mn.value #>> '{}') = ?) AS exact
     FROM contracts c
     LEFT JOIN state mn ON mn.key = c.name || '.metadata:token_name'
     LEFT JOIN state ms ON ms.key = c.name || '.metadata:token_symbol'
     WHERE (c.xsc001 = TRUE OR c.name = ?)
       AND (lower(ms.value #>> '{}') LIKE ? OR lower(mn.value #>> '{}') LIKE ?)
     ORDER BY exact DESC, c.name ASC LIMIT ?`,
    [t, t, NATIVE, starts, starts, limit],
  ));
}

/**
 * Every address that holds or received value — a `<token>.balances:<address>` row of the
 * native token or an XSC001 token (so recipients who never sent anything are listed) — or that
 * sent a transaction, most recently active first: its native balance, how many tokens it holds,
 * its sent-transaction count. `total` is the number of such addresses.
 */
export async function accounts(knex: Knex, limit: number, offset: number): Promise<{ items: Row[]; total: number }> {
  const activity = `
    WITH tokens AS (SELECT name FROM contracts WHERE xsc001 = TRUE UNION SELECT ?::text),
    balances AS (
      SELECT t.name AS contract, substr(s.key, length(t.name) + 11) AS address, s.value_numeric, s.last_block_height
      FROM tokens t JOIN state s
        ON s.key LIKE replace(replace(replace(t.name, '\\', '\\\\'), '%', '\\%'), '_', '\\_') || '.balances:%' ESCAPE '\\'
      WHERE strpos(substr(s.key, length(t.name) + 11), ':') = 0
    ),
    activity AS (
      SELECT address, contract, value_numeric, last_block_height, NULL::bigint AS tx_count FROM balances
      UNION ALL
      SELECT address, NULL, NULL, last_block_height, tx_count FROM addresses
    )`;
  const items = rows(await knex.raw(
    `${activity}
     SELECT address,
            max(CASE WHEN contract = ? THEN value_numeric END)::text AS balance,
            count(*) FILTER (WHERE contract IS NOT NULL AND contract <> ? AND value_numeric > 0) AS tokens_held,
            COALESCE(max(tx_count), 0) AS tx_count,
            max(last_block_height) AS last_block_height
     FROM activity GROUP BY address
     ORDER BY max(last_block_height) DESC, address ASC LIMIT ? OFFSET ?`,
    [NATIVE, NATIVE, NATIVE, limit, offset],
  )).map((r) => ({ ...r, tokens_held: Number(r.tokens_held), tx_count: Number(r.tx_count), last_block_height: Number(r.last_block_height) }));
  const total = Number(rows(await knex.raw(`${activity} SELECT count(DISTINCT address) AS n FROM activity`, [NATIVE]))[0]!.n);
  return { items, total };
}
