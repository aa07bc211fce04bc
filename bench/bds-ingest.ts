import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../core/logger.js';
import { defaultBdsOptions } from '../plugins/bds/bds.config.js';
import { BdsService } from '../plugins/bds/bds-service.js';
import { BdsDatabase } from '../plugins/bds/database/bds-database.js';
import { prepareSchema } from '../plugins/bds/database/bds-schema.js';
import { CORE_TABLES } from '../plugins/bds/database/schema-v7.js';
import { dropSchema, pgliteTemplateDir, postgresReachable, TEST_POSTGRES_URL } from '../test/support/databases.js';
import { SyntheticChain } from '../test/plugins/bds/support/synthetic-chain.js';
import type { BenchResult } from './bench-result.js';
import { copyAll, copyText, storedColumns, type CopyTable } from './bds-copy.js';
import { queryLatency } from './bds-query-latency.js';

/**
 * BDS ingest in catch-up mode (the follower draining a backlog from its block source, spool
 * included) over ≥ 20k transactions, next to a raw COPY of exactly the rows it wrote into an
 * empty schema with the same indexes, in the same run — on the PostgreSQL server and on PGlite;
 * then query latency at 1M transactions (bds-query-latency.ts).
 */
const BLOCKS = 220;
const TXS_PER_BLOCK = 100; // 22,000 transactions: 3 state writes, 1 event and 2 rewards each (every 10th fails: 1 write)

interface Target {
  label: string;
  url: string | null;
  pgliteDir: string | null;
  schema: string;
  home: string;
  cleanup(): Promise<void>;
}

async function pgTarget(label: string): Promise<Target> {
  const schema = `bds_bench_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const home = mkdtempSync(join(tmpdir(), 'chain-bds-bench-'));
  return { label, url: TEST_POSTGRES_URL, pgliteDir: null, schema, home, cleanup: async () => { await dropSchema(schema); rmSync(home, { recursive: true, force: true }); } };
}

async function pgliteTarget(label: string): Promise<Target> {
  const home = mkdtempSync(join(tmpdir(), 'chain-bds-bench-'));
  cpSync(await pgliteTemplateDir(), join(home, 'bds'), { recursive: true });
  return { label, url: null, pgliteDir: join(home, 'bds'), schema: 'public', home, cleanup: async () => rmSync(home, { recursive: true, force: true }) };
}

const note = (line: string) => process.stderr.write(`bds-ingest: ${line}\n`);

async function ingest(kind: 'PostgreSQL' | 'PGlite', chain: SyntheticChain, txs: number): Promise<BenchResult[]> {
  note(`${kind}: ingesting ${txs} transactions in catch-up mode`);
  const make = kind === 'PostgreSQL' ? pgTarget : pgliteTarget;
  const a = await make('ingest');
  const b = await make('copy');
  try {
    const options = defaultBdsOptions({ databaseUrl: a.url, pgliteDir: a.pgliteDir, schema: a.schema, batchMaxBlocks: 64, batchMaxTxs: 20_000, queueMaxSize: 256, catchupPollMs: 20 });
    const service = await BdsService.open({ options, home: a.home, source: chain, log: silentLogger });
    await service.prepare();
    const started = performance.now();
    service.start();
    if (!(await service.follower.waitForHeight(BLOCKS, 600_000))) throw new Error(`${kind}: ingest did not finish`);
    const ingestMs = performance.now() - started;
    await service.follower.stop();
    note(`${kind}: ingest took ${(ingestMs / 1000).toFixed(1)} s; measuring a raw COPY of the same rows`);

    const tables: CopyTable[] = [];
    let rowCount = 0;
    for (const table of CORE_TABLES.filter((t) => t !== 'bds_meta')) { // meta is the schema's own row, not block data
      const columns = await storedColumns(service.db.knex, table);
      const { text, rows } = await copyText(service.db.knex, table, columns);
      if (rows) tables.push({ table, columns, text });
      rowCount += rows;
    }
    await service.stop();
    note(`${kind}: ${tables.reduce((n, t) => n + t.text.length, 0)} bytes of COPY text, ${rowCount} rows (${(rowCount / txs).toFixed(1)} per transaction) in ${tables.length} tables`);
    const copyDb = await BdsDatabase.open({ url: b.url, pgliteDir: b.pgliteDir, schema: b.schema });
    try {
      await prepareSchema(copyDb);
      note(`${kind}: empty schema with the same indexes ready; copying`);
      const copyMs = await copyAll(copyDb, tables);
      note(`${kind}: COPY took ${(copyMs / 1000).toFixed(1)} s`);
      const ingestRate = (txs * 1000) / ingestMs;
      const copyRate = (txs * 1000) / copyMs;
      return [
        { name: `ingest catch-up, ${txs} txs (${kind})`, value: ingestRate, unit: 'tx/s', target: '≥ 10000 tx/s' },
        {
          name: `ingest vs raw COPY of the same rows (${kind})`, value: ingestRate, unit: 'tx/s',
          baseline: { name: 'COPY into the same schema', value: copyRate }, ratio: copyRate / ingestRate, target: 'ratio ≤ 2 (≥ 50% of COPY)',
        },
      ];
    } finally {
      await copyDb.close();
    }
  } finally {
    await a.cleanup();
    await b.cleanup();
  }
}

export async function run(): Promise<BenchResult[]> {
  const chain = new SyntheticChain({ txsPerBlock: TXS_PER_BLOCK, senders: 500, features: false });
  chain.mine(BLOCKS);
  const txs = BLOCKS * TXS_PER_BLOCK;
  const results: BenchResult[] = [];
  const server = await postgresReachable();
  if (server) results.push(...(await ingest('PostgreSQL', chain, txs)));
  else process.stderr.write(`bds-ingest: PostgreSQL server at ${TEST_POSTGRES_URL} unreachable; server figures skipped\n`);
  results.push(...(await ingest('PGlite', chain, txs)));
  if (server) {
    const t = await pgTarget('latency');
    try {
      results.push(...(await queryLatency(t, 'PostgreSQL')));
    } finally {
      await t.cleanup();
    }
  }
  return results;
}
