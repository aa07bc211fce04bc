import type { Knex } from 'knex';
import type { BdsDatabase } from './bds-database.js';
import { allMigrations, BdsMigrationSource, MIGRATIONS_TABLE, type BdsMigration } from './migrations.js';
import { CORE_TABLES, MANAGED_TABLES, META_TABLE, SCHEMA_VERSION } from './schema-v7.js';

/**
 * The schema guard (bds.md §2.14): an empty schema is created at version 7; a schema whose
 * version differs — or whose tables exist without a version row — is refused with advice,
 * never migrated automatically. Indexer migrations then bring contributed tables up to date.
 */
export type BdsSchemaErrorCode = 'schema_metadata_missing' | 'schema_version_mismatch';

export class BdsSchemaError extends Error {
  constructor(readonly code: BdsSchemaErrorCode, message: string) {
    super(message);
    this.name = 'BdsSchemaError';
  }
}

export interface SchemaOwner {
  name: string;
  migrations?: readonly BdsMigration[];
  /** Tables the owner created (parents first); dropped by a reset. */
  tables?: readonly string[];
}

export async function readSchemaVersion(knex: Knex): Promise<string | null> {
  const exists = await tableExists(knex, 'bds_meta');
  if (!exists) return null;
  const row = (await knex.raw(`SELECT value FROM bds_meta WHERE key = 'schema_version'`)).rows[0] as { value: string } | undefined;
  return row?.value ?? null;
}

export async function tableExists(knex: Knex, table: string): Promise<boolean> {
  const r = await knex.raw(`SELECT to_regclass(quote_ident(current_schema()) || '.' || quote_ident(?)) IS NOT NULL AS present`, [table]);
  return Boolean((r.rows[0] as { present: boolean }).present);
}

/** Creates or checks the schema, then applies pending migrations (core first, then the indexers'). */
export async function prepareSchema(db: BdsDatabase, owners: readonly SchemaOwner[] = []): Promise<void> {
  const knex = db.knex;
  await knex.raw(`CREATE SCHEMA IF NOT EXISTS ${db.quotedSchema}`);
  const version = await readSchemaVersion(knex);
  if (version === null) {
    const present: string[] = [];
    for (const table of MANAGED_TABLES) if (await tableExists(knex, table)) present.push(table);
    if (present.length) {
      throw new BdsSchemaError(
        'schema_metadata_missing',
        `BDS schema metadata is missing for existing tables (${present.join(', ')}) in ${db.describe()}; reset BDS storage (chain-bds-reindex --reset) before starting the current runtime`,
      );
    }
  } else if (version !== String(SCHEMA_VERSION)) {
    throw new BdsSchemaError(
      'schema_version_mismatch',
      `BDS schema version ${version} does not match runtime schema version ${SCHEMA_VERSION}; reset BDS storage and reindex (chain-bds-reindex --reset) or import a compatible BDS snapshot (chain-bds-snapshot import) before starting the current runtime`,
    );
  }
  await knex.raw(META_TABLE);
  await knex.migrate.latest(migrationConfig(db, owners));
}

export function migrationConfig(db: BdsDatabase, owners: readonly SchemaOwner[]): Knex.MigratorConfig {
  return {
    migrationSource: new BdsMigrationSource(allMigrations(owners)),
    tableName: MIGRATIONS_TABLE,
    schemaName: db.schema,
    // A plugin removed from the host leaves its applied migrations behind; that is not corruption.
    disableMigrationsListValidation: true,
  };
}

/**
 * Drops every BDS table (bds.md §2.14 order, all CASCADE), the contributed tables, the migration
 * bookkeeping and the numeric function. A dedicated schema is dropped as a whole.
 */
export async function resetSchema(db: BdsDatabase, owners: readonly SchemaOwner[] = []): Promise<void> {
  const knex = db.knex;
  if (db.schema !== 'public') {
    await knex.raw(`DROP SCHEMA IF EXISTS ${db.quotedSchema} CASCADE`);
    return;
  }
  const contributed = owners.flatMap((o) => [...(o.tables ?? [])].reverse());
  const core = [...CORE_TABLES].reverse();
  for (const table of [...contributed, ...core, MIGRATIONS_TABLE, `${MIGRATIONS_TABLE}_lock`]) {
    await knex.raw(`DROP TABLE IF EXISTS "${table.replace(/"/g, '""')}" CASCADE`);
  }
  await knex.raw(`DROP FUNCTION IF EXISTS bds_numeric(jsonb) CASCADE`);
}
