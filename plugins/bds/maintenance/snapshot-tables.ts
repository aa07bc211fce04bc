import type { Knex } from 'knex';
import type { SchemaOwner } from '../database/bds-schema.js';
import { CORE_TABLES } from '../database/schema-v7.js';
import type { ColumnSpec } from '../writer/bulk-insert.js';

/**
 * What a snapshot carries per table: the stored (non-generated) columns with their types, and a
 * unique key to page through the table in order (keyset paging, fast at any size).
 */
export interface TableLayout {
  table: string;
  columns: ColumnSpec[];
  /** Unique single column to page by; null = page by OFFSET over every column (small contributed tables). */
  key: string | null;
  identity: string[];
  /** NOT NULL columns (a JSON null in a NOT NULL jsonb column is the JSON text `null`). */
  notNull: Set<string>;
}

const TYPE: Record<string, string> = {
  bigint: 'bigint', integer: 'integer', text: 'text', boolean: 'boolean', jsonb: 'jsonb', json: 'json',
  'timestamp with time zone': 'timestamptz', numeric: 'numeric', smallint: 'integer', 'character varying': 'text',
  'double precision': 'double precision', real: 'real', 'timestamp without time zone': 'timestamp', date: 'date', bytea: 'bytea',
};

/** Core tables in dependency order, then each owner's tables. */
export function snapshotTables(owners: readonly SchemaOwner[]): string[] {
  return [...CORE_TABLES, ...owners.flatMap((o) => o.tables ?? [])];
}

export async function tableLayout(knex: Knex | Knex.Transaction, table: string): Promise<TableLayout | null> {
  const cols = (await knex.raw(
    `SELECT column_name, data_type, is_generated, is_identity, is_nullable FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = ? ORDER BY ordinal_position`,
    [table],
  )).rows as Array<{ column_name: string; data_type: string; is_generated: string; is_identity: string; is_nullable: string }>;
  if (!cols.length) return null;
  const pk = (await knex.raw(
    `SELECT a.attname AS name FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)
     WHERE i.indrelid = (quote_ident(current_schema()) || '.' || quote_ident(?))::regclass AND i.indisprimary`,
    [table],
  )).rows as Array<{ name: string }>;
  const stored = cols.filter((c) => c.is_generated !== 'ALWAYS');
  return {
    table,
    columns: stored.map((c) => ({ name: c.column_name, type: TYPE[c.data_type] ?? c.data_type })),
    key: pk.length === 1 ? pk[0]!.name : null,
    identity: stored.filter((c) => c.is_identity === 'YES').map((c) => c.column_name),
    notNull: new Set(stored.filter((c) => c.is_nullable === 'NO').map((c) => c.column_name)),
  };
}
