import pg from 'pg';

/** The test's own database on the PostgreSQL server, and what makes it look like upstream's. */
/** The PostgreSQL server the tests use (postgres://postgres@127.0.0.1:5432/…), with another database name. */
export function databaseUrl(base: string, database: string): string {
  const url = new URL(base);
  url.pathname = `/${database}`;
  return url.toString();
}

/** A new empty database on the server of `baseUrl`; `drop()` removes it (closing its sessions first). */
export async function createDatabase(baseUrl: string, prefix: string): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: baseUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  return { url: databaseUrl(baseUrl, name), name, drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

/**
 * Upstream's database has no migration bookkeeping; ours holds knex's two tables. Hidden from
 * PostGraphile with a smart comment, so both servers are compared over upstream's table set.
 */
export async function hideMigrationTables(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const table of ['bds_migrations', 'bds_migrations_lock']) await client.query(`COMMENT ON TABLE public.${table} IS E'@behavior -*'`);
  } finally {
    await client.end().catch(() => undefined);
  }
}
