import type { Knex } from 'knex';
import { META_TABLE, SCHEMA_V7, SCHEMA_VERSION } from './schema-v7.js';

/**
 * Schema changes as knex migrations from a source in code (no files on disk). The core
 * migration creates schema v7 and records `schema_version` in the same transaction, so a crash
 * can never leave tables without their version row. Indexers contributed by other plugins add
 * their own migrations, named `<indexer>:<name>`, applied after the core ones.
 */
export interface BdsMigration {
  /** Unique within its indexer; applied in list order. */
  name: string;
  up(knex: Knex): Promise<void>;
  down?(knex: Knex): Promise<void>;
}

export interface NamedMigration {
  name: string;
  migration: BdsMigration;
}

export const MIGRATIONS_TABLE = 'bds_migrations';

export const CORE_MIGRATIONS: readonly NamedMigration[] = [
  {
    name: '0007_bds_schema_v7',
    migration: {
      name: 'bds_schema_v7',
      async up(knex) {
        for (const statement of SCHEMA_V7) await knex.raw(statement);
        await knex.raw(
          `INSERT INTO bds_meta (key, value, updated_at) VALUES ('schema_version', ?, now())
           ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at`,
          [String(SCHEMA_VERSION)],
        );
      },
    },
  },
];

export class BdsMigrationSource implements Knex.MigrationSource<NamedMigration> {
  constructor(private readonly migrations: readonly NamedMigration[]) {}

  async getMigrations(): Promise<NamedMigration[]> {
    return [...this.migrations];
  }

  getMigrationName(migration: NamedMigration): string {
    return migration.name;
  }

  async getMigration(migration: NamedMigration): Promise<Knex.Migration> {
    const m = migration.migration;
    return { up: (knex: Knex) => m.up(knex), down: (knex: Knex) => (m.down ? m.down(knex) : Promise.resolve()) };
  }
}

/** Core migrations followed by every indexer's, each prefixed with its indexer's name. */
export function allMigrations(indexers: ReadonlyArray<{ name: string; migrations?: readonly BdsMigration[] }>): NamedMigration[] {
  const out: NamedMigration[] = [...CORE_MIGRATIONS];
  const seen = new Set(out.map((m) => m.name));
  for (const indexer of indexers) {
    for (const migration of indexer.migrations ?? []) {
      const name = `${indexer.name}:${migration.name}`;
      if (seen.has(name)) throw new Error(`BDS migration ${name} is declared twice`);
      seen.add(name);
      out.push({ name, migration });
    }
  }
  return out;
}

export { META_TABLE };
