import { strict as assert } from 'node:assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Knex } from 'knex';
import { BdsDatabase } from '../../../plugins/bds/database/bds-database.js';
import { DirectoryLockedError } from '../../../core/fs/directory-lock.js';
import { Spool } from '../../../plugins/bds/follower/spool.js';
import { WriterLock, WriterLockHeldError } from '../../../plugins/bds/follower/writer-lock.js';
import type { BdsIndexer } from '../../../plugins/bds/indexer-point.js';
import { BUILTIN_INDEXERS } from '../../../plugins/bds/indexers/builtin-indexers.js';
import { createProgress } from '../../../plugins/bds/maintenance/progress.js';
import { reindex, ReindexError } from '../../../plugins/bds/maintenance/reindex.js';
import { exportSnapshot } from '../../../plugins/bds/maintenance/snapshot-export.js';
import { SnapshotError } from '../../../plugins/bds/maintenance/snapshot-format.js';
import { importSnapshot } from '../../../plugins/bds/maintenance/snapshot-import.js';
import { forEachDatabase, type TestDatabase } from '../../support/databases.js';
import { assertMatchesChain, fingerprint } from './support/index-fingerprint.js';
import { SyntheticChain } from './support/synthetic-chain.js';

/** A contributed projection, so snapshots and resets are shown to carry the indexers' own tables. */
const transferCounter: BdsIndexer = {
  name: 'transfer-counter',
  capability: 'read',
  tables: ['probe_transfers'],
  migrations: [{ name: '0001', up: async (k: Knex) => { await k.raw(`CREATE TABLE probe_transfers (event_id BIGINT PRIMARY KEY REFERENCES events(id) ON DELETE CASCADE, amount TEXT NOT NULL)`); } }],
  async apply(block, trx) {
    for (const e of block.events) if (e.event === 'Transfer') await trx.raw(`INSERT INTO probe_transfers VALUES (?, ?) ON CONFLICT DO NOTHING`, [String(e.id), String(e.data.amount)]);
  },
};
const INDEXERS = [...BUILTIN_INDEXERS, transferCounter];

async function open(db: TestDatabase): Promise<BdsDatabase> {
  return BdsDatabase.open({ url: db.url, pgliteDir: db.pgliteDir, schema: db.schema });
}

function quiet(): { lines: string[]; progress: ReturnType<typeof createProgress> } {
  const lines: string[] = [];
  return { lines, progress: createProgress({ tty: false, write: (l) => lines.push(l), intervalMs: 0 }) };
}

describe('BDS maintenance (spec part 4: chain-bds-reindex, chain-bds-snapshot)', function () {
  this.timeout(120_000);

  forEachDatabase((target) => {
    let db: BdsDatabase | null = null;
    afterEach(async () => {
      await db?.close();
      db = null;
    });

    describe('reindex', function () {
      it('defaults to indexed height + 1 … the latest height, and can be resumed in ranges', async function () {
        const fresh = target.fresh();
        const chain = new SyntheticChain({ txsPerBlock: 6 });
        chain.mine(40);
        db = await open(fresh);
        const spool = new Spool(join(fresh.home, 'bds-spool'));
        const { lines, progress } = quiet();
        const first = await reindex({ db, indexers: INDEXERS, spool, source: chain, endHeight: 15, batchMaxBlocks: 4, progress });
        assert.deepEqual([first.start, first.end, first.indexed_height, first.latest_height], [0, 15, 15, 40]);
        assert.ok(lines.some((l) => /^BDS reindex: 16\/16 blocks \(100\.0%\) [\d.]+ blocks\/s, \d+ txs \(\d+ txs\/s\) ETA/.test(l)), lines.join('\n'));
        const rest = await reindex({ db, indexers: INDEXERS, spool, source: chain, endHeight: 1000 });
        assert.deepEqual([rest.start, rest.end, rest.indexed_height], [16, 40, 40]);
        await assertMatchesChain(db.knex, chain);
        const again = await reindex({ db, indexers: INDEXERS, spool, source: chain, startHeight: 30 });
        assert.deepEqual([again.written, again.skipped], [0, 11], 'heights already indexed are checked and skipped');
      });

      it('refuses gaps and pruned ranges, naming the heights', async function () {
        const fresh = target.fresh();
        const chain = new SyntheticChain();
        chain.mine(20);
        db = await open(fresh);
        const spool = new Spool(join(fresh.home, 'bds-spool'));
        await reindex({ db, indexers: INDEXERS, spool, source: chain, endHeight: 5 });
        await assert.rejects(() => reindex({ db: db!, indexers: INDEXERS, spool, source: chain, startHeight: 9 }), (err: unknown) =>
          err instanceof ReindexError && /--start-height 9 would leave heights 6\.\.8 missing/.test(err.message));
        chain.earliest = 12;
        await assert.rejects(() => reindex({ db: db!, indexers: INDEXERS, spool, source: chain }), (err: unknown) =>
          err instanceof ReindexError && /has pruned heights 6\.\.11 \(its earliest retained block is 12\)/.test(err.message));
      });

      it('--reset drops the schema and the spool, then rebuilds from genesis', async function () {
        const fresh = target.fresh();
        const chain = new SyntheticChain();
        chain.mine(8);
        db = await open(fresh);
        const spool = new Spool(join(fresh.home, 'bds-spool'));
        await reindex({ db, indexers: INDEXERS, spool, source: chain });
        const before = await fingerprint(db.knex);
        spool.write(chain.payload(8));
        await db.knex.raw(`DELETE FROM probe_transfers`);
        const r = await reindex({ db, indexers: INDEXERS, spool, source: chain, reset: true });
        assert.deepEqual([r.start, r.indexed_height], [0, 8]);
        assert.equal(spool.count, 0);
        assert.deepEqual(await fingerprint(db.knex), before);
        assert.ok(Number((await db.knex.raw(`SELECT count(*) AS n FROM probe_transfers`)).rows[0].n) > 0, 'contributed projection rebuilt');
      });

      it('--reset against a pruned source, another chain or other hashes fails before it changes anything', async function () {
        const fresh = target.fresh();
        const chain = new SyntheticChain();
        chain.mine(8);
        db = await open(fresh);
        const spool = new Spool(join(fresh.home, 'bds-spool'));
        await reindex({ db, indexers: INDEXERS, spool, source: chain });
        spool.write(chain.payload(8));
        const before = await fingerprint(db.knex);
        const unchanged = async (what: string) => {
          assert.deepEqual(await fingerprint(db!.knex), before, `${what}: the index is untouched`);
          assert.equal(spool.count, 1, `${what}: the spool is untouched`);
        };
        const pruned = new SyntheticChain();
        pruned.mine(8);
        pruned.earliest = 5;
        await assert.rejects(() => reindex({ db: db!, indexers: INDEXERS, spool, source: pruned, reset: true }), (err: unknown) =>
          err instanceof ReindexError && /has pruned heights 1\.\.4 .*nothing was reset/.test(err.message));
        await unchanged('pruned source');
        const other = new SyntheticChain({ chainId: 'chain-other-1' });
        other.mine(8);
        await assert.rejects(() => reindex({ db: db!, indexers: INDEXERS, spool, source: other, trusted: chain, reset: true }), (err: unknown) =>
          err instanceof ReindexError && /block 1 hash mismatch.*nothing was reset/.test(err.message));
        await unchanged('other hashes');
        await assert.rejects(() => reindex({
          db: db!, indexers: INDEXERS, spool, source: chain, trusted: chain, reset: true,
          chainIds: { source: async () => 'chain-other-1', trusted: async () => 'chain-local-1' },
        }), (err: unknown) => err instanceof ReindexError && /is chain chain-other-1, the local node chain chain-local-1; nothing was reset/.test(err.message));
        await unchanged('another chain');
      });

      it('refuses to run while a live writer holds the database', async function () {
        const fresh = target.fresh();
        const chain = new SyntheticChain();
        chain.mine(2);
        db = await open(fresh);
        if (target.kind === 'postgres') {
          const live = await open(fresh);
          const lock = new WriterLock(live);
          await lock.ensure();
          try {
            await assert.rejects(() => reindex({ db: db!, indexers: INDEXERS, spool: new Spool(join(fresh.home, 'bds-spool')), source: chain }), (err: unknown) =>
              err instanceof WriterLockHeldError && /another BDS writer holds the database/.test(err.message));
          } finally {
            await lock.release();
            await live.close();
          }
        } else {
          await assert.rejects(() => open(fresh), (err: unknown) => err instanceof DirectoryLockedError && /is in use by process \d+/.test(err.message));
        }
      });
    });

    describe('snapshot', function () {
      it('round-trips: export → reset → import gives identical rows, sequences continue', async function () {
        const fresh = target.fresh();
        const chain = new SyntheticChain({ txsPerBlock: 5 });
        chain.mine(25);
        db = await open(fresh);
        const spool = new Spool(join(fresh.home, 'bds-spool'));
        await reindex({ db, indexers: INDEXERS, spool, source: chain });
        const before = await fingerprint(db.knex);
        const ids = (await db.knex.raw(`SELECT (SELECT max(id) FROM events) AS e, (SELECT max(change_id) FROM state_changes) AS c, (SELECT count(*) FROM probe_transfers) AS p`)).rows[0];
        const file = join(fresh.home, 'snap.jsonl.gz');
        const out = await exportSnapshot({ db, owners: INDEXERS, outputPath: file });
        assert.equal(out.indexed_height, 25);
        await assert.rejects(() => exportSnapshot({ db: db!, owners: INDEXERS, outputPath: file }), /exists; pass --force/);
        const header = JSON.parse(gunzipSync(readFileSync(file)).toString().split('\n')[0]!).header;
        assert.deepEqual([header.format, header.format_version, header.schema_version, header.chain_id, header.height_range], ['chain-bds-snapshot', 1, 7, 'chain-local-1', [0, 25]]);
        assert.ok(header.tables.includes('probe_transfers'));

        await reindex({ db, indexers: INDEXERS, spool, source: new SyntheticChain(), reset: true, endHeight: 0 }); // wipe
        const r = await importSnapshot({ db, owners: INDEXERS, spool, inputPath: file, source: chain, chainId: async () => 'chain-local-1' });
        assert.equal(r.indexed_height, 25);
        assert.deepEqual(await fingerprint(db.knex), before);
        const after = (await db.knex.raw(`SELECT (SELECT max(id) FROM events) AS e, (SELECT max(change_id) FROM state_changes) AS c, (SELECT count(*) FROM probe_transfers) AS p`)).rows[0];
        assert.deepEqual({ ...after }, { ...ids }, 'ids kept, contributed table restored');
        chain.mine(3);
        await reindex({ db, indexers: INDEXERS, spool, source: chain });
        const next = (await db.knex.raw(`SELECT min(id) AS id FROM events WHERE block_height = 26`)).rows[0].id;
        assert.ok(Number(next) > Number(ids.e), 'identity sequences reset past the imported ids');
        await assertMatchesChain(db.knex, chain);
      });

      it('verifies the archive and checks it against the RPC source before writing', async function () {
        const fresh = target.fresh();
        const chain = new SyntheticChain();
        chain.mine(6);
        db = await open(fresh);
        const spool = new Spool(join(fresh.home, 'bds-spool'));
        await reindex({ db, indexers: INDEXERS, spool, source: chain });
        const file = join(fresh.home, 'snap.jsonl.gz');
        await exportSnapshot({ db, owners: INDEXERS, outputPath: file });
        const before = await fingerprint(db.knex);
        const other = new SyntheticChain({ chainId: 'chain-local-1' });
        other.mine(3);
        const tryImport = (path: string, source = chain, chainId = 'chain-local-1') => importSnapshot({ db: db!, owners: INDEXERS, spool, inputPath: path, source, chainId: async () => chainId });

        await assert.rejects(() => tryImport(file, chain, 'chain-other-9'), (e: unknown) => e instanceof SnapshotError && /chain id mismatch: snapshot chain-local-1, configured RPC source chain-other-9/.test(e.message));
        const forked = new SyntheticChain({ chainId: 'chain-local-1', txsPerBlock: 2 });
        forked.mine(6);
        (forked as any).payload = (h: number) => ({ ...chain.payload(h), block_meta: { ...chain.payload(h).block_meta, hash: 'AB'.repeat(32) } });
        await assert.rejects(() => tryImport(file, forked), /BDS snapshot indexed block hash mismatch at height 6/);

        const text = gunzipSync(readFileSync(file)).toString();
        const tampered = join(fresh.home, 'tampered.jsonl.gz');
        writeFileSync(tampered, gzipSync(text.replace('"event":"Transfer"', '"event":"Transfe!"')));
        await assert.rejects(() => tryImport(tampered), /snapshot table events fails its checksum/);
        const truncated = join(fresh.home, 'truncated.jsonl.gz');
        writeFileSync(truncated, gzipSync(text.split('\n').slice(0, -2).join('\n')));
        await assert.rejects(() => tryImport(truncated), /has no manifest: it is truncated/);
        writeFileSync(tampered, gzipSync(text.replace('"schema_version":7', '"schema_version":6')));
        await assert.rejects(() => tryImport(tampered), /BDS snapshot schema version mismatch: snapshot 6, runtime 7/);
        assert.deepEqual(await fingerprint(db.knex), before, 'nothing written by a refused import');
      });
    });
  });
});
