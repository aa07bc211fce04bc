import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BdsDatabase } from '../../../plugins/bds/database/bds-database.js';
import { maxIndexedHeight } from '../../../plugins/bds/reads/block-reads.js';
import { forEachDatabase, type TestDatabase } from '../../support/databases.js';
import { openService, waitIndexed } from './support/bds-harness.js';
import { assertMatchesChain, fingerprint } from './support/index-fingerprint.js';
import { SyntheticChain, type SyntheticOptions } from './support/synthetic-chain.js';

const CHILD = fileURLToPath(new URL('./support/follower-child.ts', import.meta.url));
const CHAIN: SyntheticOptions = { txsPerBlock: 12, senders: 40 };
const HEIGHT = 250;

/**
 * Runs the worker in a child process and SIGKILLs it `jitterMs` after it reported indexing
 * `killAt` (-2: right after it opened the database, i.e. during schema set-up) — so kills land
 * in start-up, migrations, spool writes and batch writes alike.
 */
function runAndKill(db: TestDatabase, killAt: number, jitterMs: number, limitMs = 120_000): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify({ db, chain: CHAIN, height: HEIGHT })], { stdio: ['ignore', 'pipe', 'pipe'] });
    let last: number | null = null;
    let out = '';
    let stderr = '';
    let armed = false;
    const kill = () => child.kill('SIGKILL');
    child.stdout.on('data', (chunk: Buffer) => {
      out = (out + chunk.toString()).slice(-200);
      const all = [...out.matchAll(/indexed (-?\d+)\n/g)];
      if (all.length) last = Number(all[all.length - 1]![1]);
      if (!armed && (killAt === -2 ? out.includes('started') : last !== null && last >= killAt)) {
        armed = true;
        setTimeout(kill, jitterMs);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(kill, limitMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal !== 'SIGKILL' && code !== 0) reject(new Error(`worker exited with ${code}: ${stderr.slice(-2000)}`));
      else resolve(last);
    });
  });
}

async function indexedHeightOf(db: TestDatabase): Promise<number | null> {
  const handle = await BdsDatabase.open({ url: db.url, pgliteDir: db.pgliteDir, schema: db.schema });
  try {
    return await maxIndexedHeight(handle.knex).catch(() => null); // no tables yet: killed during set-up
  } finally {
    await handle.close();
  }
}

describe('BDS crash safety: kill -9 of the worker at random points', function () {
  this.timeout(600_000);

  forEachDatabase((target) => {
    it('ends with an index identical to a clean run: no gap, no duplicate, nothing lost', async function () {
      const chain = new SyntheticChain(CHAIN);
      chain.mine(HEIGHT);

      const reference = await openService(target.fresh(), chain, { batchMaxBlocks: 16 });
      const began = Date.now();
      await reference.prepare();
      reference.start();
      await waitIndexed(reference, HEIGHT, 300_000);
      const duration = Date.now() - began;
      const expected = await fingerprint(reference.db.knex);
      await reference.stop();

      const db = target.fresh();
      const seen: Array<number | null> = [];
      // Kill points: during set-up, then at rising random heights with random jitter.
      const points = [-2, ...[0, 1, 2, 3].map((i) => Math.floor((HEIGHT * i) / 4 + Math.random() * (HEIGHT / 4)))];
      const delays = points.map((p) => (p === -2 ? Math.floor(Math.random() * 1500) : Math.floor(Math.random() * 200)));
      for (let i = 0; i < points.length; i++) {
        await runAndKill(db, points[i]!, delays[i]!);
        seen.push(await indexedHeightOf(db)); // also proves the database opens cleanly after the kill
      }

      const service = await openService(db, chain, { batchMaxBlocks: 16 });
      try {
        service.start();
        await waitIndexed(service, HEIGHT, 300_000);
        await assertMatchesChain(service.db.knex, chain);
        const actual = await fingerprint(service.db.knex);
        for (const table of Object.keys(expected)) assert.equal(actual[table], expected[table], `table ${table} differs from the clean run`);
        assert.equal(service.spool.count, 0);
        console.log(`      clean run ${duration} ms; kills at heights ${points.join(', ')} + ${delays.join(', ')} ms; indexed height after each kill: ${seen.map((s) => s ?? 'none').join(', ')}`);
      } finally {
        await service.stop();
      }
    });
  });
});
