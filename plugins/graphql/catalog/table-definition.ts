/**
 * A table as the GraphQL layer sees it: what PostGraphile would introspect from the database
 * (columns with their PostgreSQL types and nullability, primary key, unique constraints,
 * foreign keys), written down instead of introspected so the schema is fixed at boot and does
 * not depend on what happens to exist in the database. Other plugins describe their own BDS
 * tables the same way (the DEX plugin's candles) and get the same connection, lookups,
 * filters, ordering and aggregates.
 */
export type PgColumnType = 'text' | 'bigint' | 'integer' | 'numeric' | 'boolean' | 'jsonb' | 'timestamptz';

export interface ColumnDefinition {
  /** SQL column name (snake_case); the GraphQL field is its camelCase form. */
  name: string;
  type: PgColumnType;
  /** NOT NULL columns become non-null GraphQL fields. Default false. */
  nullable?: boolean;
  description?: string;
}

export interface ForeignKeyDefinition {
  /** Columns of this table. */
  columns: readonly string[];
  /** The referenced table (by SQL name) and its key columns, in the same order. */
  references: { table: string; columns: readonly string[] };
}

export interface TableDefinition {
  /** SQL table name in the BDS schema, e.g. `transactions`. */
  name: string;
  /** PostGraphile's type name: the singular PascalCase table name, e.g. `Transaction`. */
  typeName: string;
  /** Its plural, e.g. `Transactions` (→ `allTransactions`, `TransactionsConnection`). */
  pluralTypeName: string;
  /** PostGraphile's node alias (the pluralised SQL table name) used inside `nodeId`; default `name`. */
  nodeAlias?: string;
  description?: string;
  columns: readonly ColumnDefinition[];
  primaryKey: readonly string[];
  /** UNIQUE constraints besides the primary key; each gives a `<type>By<Cols>` lookup. */
  uniqueKeys?: ReadonlyArray<readonly string[]>;
  foreignKeys?: readonly ForeignKeyDefinition[];
}

export function columnOf(table: TableDefinition, name: string): ColumnDefinition {
  const column = table.columns.find((c) => c.name === name);
  if (!column) throw new Error(`table ${table.name} has no column ${name}`);
  return column;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
const TYPE_NAME = /^[A-Z][A-Za-z0-9]*$/;

/** Catches a malformed contribution at boot with a message naming the table and the problem. */
export function checkTableDefinition(table: TableDefinition): void {
  const where = `GraphQL table ${JSON.stringify(table.name)}`;
  if (!IDENTIFIER.test(table.name)) throw new Error(`${where}: the SQL name must be lower snake_case`);
  if (!TYPE_NAME.test(table.typeName) || !TYPE_NAME.test(table.pluralTypeName)) {
    throw new Error(`${where}: typeName and pluralTypeName must be PascalCase GraphQL names`);
  }
  if (table.typeName === table.pluralTypeName) throw new Error(`${where}: typeName and pluralTypeName must differ`);
  if (table.columns.length === 0) throw new Error(`${where}: has no columns`);
  const names = new Set<string>();
  for (const c of table.columns) {
    if (!IDENTIFIER.test(c.name)) throw new Error(`${where}: column ${JSON.stringify(c.name)} must be lower snake_case`);
    if (names.has(c.name)) throw new Error(`${where}: column ${c.name} is listed twice`);
    names.add(c.name);
  }
  const known = (cols: readonly string[], what: string) => {
    if (cols.length === 0) throw new Error(`${where}: ${what} has no columns`);
    for (const c of cols) if (!names.has(c)) throw new Error(`${where}: ${what} names unknown column ${c}`);
  };
  known(table.primaryKey, 'the primary key');
  for (const c of table.primaryKey) {
    if (columnOf(table, c).nullable) throw new Error(`${where}: primary key column ${c} must be NOT NULL`);
  }
  for (const u of table.uniqueKeys ?? []) known(u, 'a unique key');
  for (const fk of table.foreignKeys ?? []) {
    known(fk.columns, 'a foreign key');
    if (fk.columns.length !== fk.references.columns.length) throw new Error(`${where}: a foreign key to ${fk.references.table} has mismatched column counts`);
  }
}
