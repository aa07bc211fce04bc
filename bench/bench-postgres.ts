import pg from 'pg';

/** The PostgreSQL server the benchmarks use: CHAIN_BENCH_POSTGRES_URL, else the tests' server. */
export const BENCH_POSTGRES_URL = process.env.CHAIN_BENCH_POSTGRES_URL ?? process.env.CHAIN_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Whether a connection to `url` opens within 3 s (a benchmark without the server skips its server figures). */
export async function postgresReachable(url: string = BENCH_POSTGRES_URL): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}
