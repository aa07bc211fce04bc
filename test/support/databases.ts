import { PGlite } from '@electric-sql/pglite';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * Runs a suite against both BDS databases: PGlite (a fresh temp directory per test) and the
 * PostgreSQL server (a fresh schema per test in postgres://postgres@127.0.0.1:5432/test, dropped
 * afterwards). When the server is unreachable the server half is skipped with a plain message —
 * unless CHAIN_TEST_REQUIRE_POSTGRES=1 (CI), where the suite fails instead.
 */
export const TEST_POSTGRES_URL = process.env.CHAIN_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SKIP_MESSAGE = 'PostgreSQL server at 127.0.0.1:5432 unreachable: server half of the database tests SKIPPED';

export type TestDatabaseKind = 'pglite' | 'postgres';

export interface TestDatabase {
  kind: TestDatabaseKind;
  /** A fresh temp directory: the host home (spool under `<home>/bds-spool`). */
  home: string;
  /** null for PGlite. */
  url: string | null;
  /** `<home>/bds` for PGlite, unused on the server. */
  pgliteDir: string | null;
  schema: string;
}

export interface TestDatabaseTarget {
  readonly kind: TestDatabaseKind;
  /** A fresh, empty database for this test; cleaned up after it (after the whole suite with `suite: true`, for `before` hooks). */
  fresh(options?: { suite?: boolean }): TestDatabase;
}

let reachability: Promise<boolean> | null = null;
let pgliteTemplate: Promise<string> | null = null;

/**
 * An initialised but empty PGlite data directory, made once per test process: PGlite's initdb
 * takes 10+ seconds, a copy of its result well under one. Each test still starts from an empty
 * cluster, exactly what a first start on a new home sees.
 */
export function pgliteTemplateDir(): Promise<string> {
  pgliteTemplate ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chain-bds-pglite-template-'));
    const pglite = new PGlite(dir);
    await pglite.waitReady;
    await pglite.close();
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    return dir;
  })();
  return pgliteTemplate;
}
let skipNoticePrinted = false;

export function postgresReachable(): Promise<boolean> {
  reachability ??= (async () => {
    const client = new pg.Client({ connectionString: TEST_POSTGRES_URL, connectionTimeoutMillis: 3000 });
    try {
      await client.connect();
      await client.query('SELECT 1');
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return reachability;
}

export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end().catch(() => undefined);
  }
}

function uniqueSchema(): string {
  return `bds_test_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
}

export function forEachDatabase(body: (target: TestDatabaseTarget) => void): void {
  for (const kind of ['pglite', 'postgres'] as const) {
    describe(`on ${kind === 'pglite' ? 'PGlite' : 'the PostgreSQL server'}`, function () {
      const created: TestDatabase[] = [];
      const suiteCreated: TestDatabase[] = [];
      const cleanUp = async (list: TestDatabase[]) => {
        for (const db of list.splice(0)) {
          if (db.kind === 'postgres') await dropSchema(db.schema).catch(() => undefined);
          rmSync(db.home, { recursive: true, force: true });
        }
      };
      let template: string | null = null;
      before(async function () {
        if (kind === 'pglite') {
          this.timeout(120_000);
          template = await pgliteTemplateDir();
          return;
        }
        if (await postgresReachable()) return;
        if (process.env.CHAIN_TEST_REQUIRE_POSTGRES === '1') {
          throw new Error(`PostgreSQL server at ${TEST_POSTGRES_URL} unreachable and CHAIN_TEST_REQUIRE_POSTGRES=1: the server half of the database tests cannot run`);
        }
        if (!skipNoticePrinted) {
          skipNoticePrinted = true;
          console.log(SKIP_MESSAGE);
        }
        this.skip();
      });
      afterEach(() => cleanUp(created));
      after(() => cleanUp(suiteCreated));
      body({
        kind,
        fresh(options: { suite?: boolean } = {}): TestDatabase {
          const home = mkdtempSync(join(tmpdir(), `chain-bds-${kind}-`));
          const db: TestDatabase = kind === 'pglite'
            ? { kind, home, url: null, pgliteDir: join(home, 'bds'), schema: 'public' }
            : { kind, home, url: TEST_POSTGRES_URL, pgliteDir: null, schema: uniqueSchema() };
          if (db.pgliteDir && template) cpSync(template, db.pgliteDir, { recursive: true });
          (options.suite ? suiteCreated : created).push(db);
          return db;
        },
      });
    });
  }
}
