import { strict as assert } from 'node:assert';
import { BdsDatabase } from '../../../plugins/bds/database/bds-database.js';
import { prepareSchema } from '../../../plugins/bds/database/bds-schema.js';
import { BUILTIN_INDEXERS } from '../../../plugins/bds/indexers/builtin-indexers.js';
import { BlockWriter, type BlockWriterOptions } from '../../../plugins/bds/writer/block-writer.js';
import { copiesFreshRows } from '../../../plugins/bds/writer/bulk-insert.js';
import { copyChunks, copyField } from '../../../plugins/bds/writer/copy-rows.js';
import type { JsonObject } from '../../../core/chain/canonical-json.js';
import type { Knex } from 'knex';
import pg from 'pg';
import type { BlockPayload } from '../../../plugins/bds/block/block-payload.js';
import type { BdsIndexer } from '../../../plugins/bds/indexer-point.js';
import { forEachDatabase, TEST_POSTGRES_URL } from '../../support/databases.js';
import { fingerprint } from './support/index-fingerprint.js';
import { SyntheticChain } from './support/synthetic-chain.js';

/**
 * The COPY path of the writer (new heights): the text it streams, values that need escaping
 * stored exactly, and the fallback to the idempotent INSERTs when a new height repeats a
 * transaction hash already indexed.
 */
const AWKWARD = 'tab\there, newline\nthere, cr\rhere, backslash \\ and \\N, quote " and \u00e9\u4e2d\ud83d\ude00';

/** State writes the payloads carry: genesis entries plus every transaction's. */
function writesOf(payloads: readonly BlockPayload[]): number {
  return payloads.reduce((n, p) => n + (p.genesis?.length ?? 0) + p.transactions.reduce((m, t) => m + (t.tx_result.state as unknown[]).length, 0), 0);
}

describe('BDS writer COPY path', function () {
  this.timeout(120_000);

  it('spells values as COPY text: escapes, NULL, numbers, booleans, JSON', function () {
    assert.equal(copyField(null, 'text'), '\\N');
    assert.equal(copyField(undefined, 'jsonb'), '\\N');
    assert.equal(copyField('a\tb\nc\rd\\e', 'text'), 'a\\tb\\nc\\rd\\\\e');
    assert.equal(copyField(12345678901234567890n, 'bigint'), '12345678901234567890');
    assert.equal(copyField(7, 'integer'), '7');
    assert.equal(copyField(true, 'boolean'), 'true');
    assert.equal(copyField(false, 'jsonb'), 'false');
    assert.equal(copyField({ s: 'x\\y', n: 1n }, 'jsonb'), '{"s":"x\\\\\\\\y","n":1}');
    assert.equal(copyField(new Date('2026-01-01T00:00:00.5Z'), 'timestamptz'), '2026-01-01T00:00:00.500Z');
    const rows = Array.from({ length: 10_000 }, (_, i) => [i, `row ${i} ${'x'.repeat(20)}`]);
    const chunks = [...copyChunks([{ name: 'a', type: 'integer' }, { name: 'b', type: 'text' }], rows)];
    assert.ok(chunks.length > 1, 'long input is streamed in several chunks');
    assert.equal(chunks.join(''), rows.map((r) => `${r[0]}\t${r[1]}\n`).join(''));
  });

  forEachDatabase((target) => {
    let db: BdsDatabase | null = null;
    afterEach(async () => {
      await db?.close();
      db = null;
    });

    /** Every write also records whether its rows went through COPY (`copied`, one entry per write). */
    const copied: boolean[] = [];
    const observer: BdsIndexer = {
      name: 'copy-observer', capability: 'read',
      async apply() {},
      async applyBatch(_blocks, trx) {
        copied.push(copiesFreshRows(trx));
      },
    };
    beforeEach(() => {
      copied.length = 0;
    });

    async function open(extra: BdsIndexer[] = [], options: BlockWriterOptions = { copyMinTransactions: 0 }): Promise<{ db: BdsDatabase; writer: BlockWriter }> {
      const t = target.fresh();
      const handle = await BdsDatabase.open({ url: t.url, pgliteDir: t.pgliteDir, schema: t.schema });
      await prepareSchema(handle, BUILTIN_INDEXERS);
      db = handle;
      return { db: handle, writer: new BlockWriter(handle, () => [...BUILTIN_INDEXERS, ...extra, observer], options) };
    }

    it('copies the rows of a large run of new heights, inserts those of a small one, and writes the same rows either way', async function () {
      const chain = new SyntheticChain({ txsPerBlock: 30, senders: 7 });
      chain.mine(5);
      const payloads = [0, 1, 2, 3, 4, 5].map((h) => chain.payload(h));
      const byCopy = await open([], { copyMinTransactions: 100 });
      await byCopy.writer.write(payloads.slice(0, 2)); // 31 transactions: INSERTs
      await byCopy.writer.write(payloads.slice(2)); // 120 (and a state-patch pseudo-transaction): COPY
      assert.deepEqual(copied, [false, true]);
      const viaCopy = await fingerprint(byCopy.db.knex);
      await byCopy.db.close();
      const byInsert = await open([], { copyMinTransactions: Number.MAX_SAFE_INTEGER });
      await byInsert.writer.write(payloads.slice(0, 2));
      await byInsert.writer.write(payloads.slice(2));
      assert.deepEqual(copied, [false, true, false, false]);
      assert.deepEqual(await fingerprint(byInsert.db.knex), viaCopy);
    });

    async function counts(knex: Knex): Promise<Record<string, number>> {
      const out: Record<string, number> = {};
      for (const table of ['blocks', 'transactions', 'state_changes', 'events', 'rewards', 'addresses', 'state']) {
        out[table] = Number((await knex.raw(`SELECT count(*) AS n FROM ${table}`)).rows[0].n);
      }
      return out;
    }

    it('rolls back the COPYed rows with the batch when a later step fails, and the retry writes them all', async function () {
      const chain = new SyntheticChain({ txsPerBlock: 20, senders: 5, features: false });
      chain.mine(6);
      let failures = 1;
      const flaky: BdsIndexer = {
        name: 'flaky', capability: 'read',
        async apply() {
          if (failures-- > 0) throw new Error('flaky indexer');
        },
      };
      const opened = await open([flaky]);
      const payloads = [0, 1, 2, 3, 4, 5, 6].map((h) => chain.payload(h));
      await assert.rejects(opened.writer.write(payloads), /flaky indexer/);
      assert.deepEqual(Object.values(await counts(opened.db.knex)), [0, 0, 0, 0, 0, 0, 0]);
      await opened.writer.write(payloads);
      const after = await counts(opened.db.knex);
      assert.equal(after.blocks, 7);
      assert.equal(after.transactions, 1 + 6 * 20);
      assert.equal(after.state_changes, writesOf(payloads));
      assert.equal(after.events, 6 * 20 - Number((await opened.db.knex.raw(`SELECT count(*) AS n FROM transactions WHERE NOT success`)).rows[0].n));
    });

    if (target.kind === 'postgres') {
      it('a connection killed in the middle of a COPY fails the write (no hang) and the retry writes the batch completely', async function () {
        const chain = new SyntheticChain({ txsPerBlock: 200, senders: 50, features: false });
        chain.mine(40);
        const opened = await open();
        const payloads = Array.from({ length: 41 }, (_, h) => chain.payload(h));
        const killer = new pg.Client({ connectionString: TEST_POSTGRES_URL });
        await killer.connect();
        try {
          const writing = opened.writer.write(payloads).then(() => null, (err: unknown) => err);
          let killed = 0;
          for (let i = 0; i < 2000 && !killed; i++) {
            const r = await killer.query(
              `SELECT pg_terminate_backend(pid) AS gone FROM pg_stat_activity WHERE state = 'active' AND query LIKE 'COPY "state_changes"%' AND pid <> pg_backend_pid()`,
            );
            killed = r.rows.filter((row) => row.gone).length;
            if (!killed) await new Promise((resolve) => setTimeout(resolve, 2));
          }
          assert.equal(killed, 1, 'caught the writer inside its COPY of state_changes');
          assert.ok((await writing) instanceof Error, 'the write failed');
        } finally {
          await killer.end();
        }
        assert.equal((await counts(opened.db.knex)).blocks, 0);
        await opened.writer.write(payloads);
        const after = await counts(opened.db.knex);
        assert.deepEqual([after.blocks, after.transactions], [41, 1 + 40 * 200]);
        assert.equal(after.state_changes, writesOf(payloads));
      });
    }

    it('stores text and JSON that need escaping exactly as given', async function () {
      const chain = new SyntheticChain({ txsPerBlock: 3, senders: 2, features: false });
      chain.mine(1);
      const block = chain.payload(1);
      const tx = block.transactions[0]!;
      const payload = tx.payload as JsonObject;
      (payload.kwargs as JsonObject).memo = AWKWARD;
      tx.envelope = { metadata: { signature: 'aa' }, payload };
      const result = tx.tx_result as JsonObject;
      result.result = AWKWARD;
      (result.state as JsonObject[])[0]!.value = { note: AWKWARD, n: 12345678901234567890n } as unknown as JsonObject;
      ((result.events as JsonObject[])[0]!.data as JsonObject).memo = AWKWARD;
      const opened = await open();
      await opened.writer.write([chain.payload(0), block]);
      const hash = String(result.hash);
      const row = (await opened.db.knex.raw(`SELECT payload, envelope, result FROM transactions WHERE hash = ?`, [hash])).rows[0];
      assert.equal(row.payload.kwargs.memo, AWKWARD);
      assert.equal(row.envelope.payload.kwargs.memo, AWKWARD);
      assert.equal(row.result, AWKWARD);
      const change = (await opened.db.knex.raw(`SELECT new_value FROM state_changes WHERE tx_hash = ? AND write_index = 0`, [hash])).rows[0];
      assert.deepEqual({ ...change.new_value }, { note: AWKWARD, n: 12345678901234567890n });
      const event = (await opened.db.knex.raw(`SELECT data FROM events WHERE tx_hash = ?`, [hash])).rows[0];
      assert.equal(event.data.memo, AWKWARD);
    });

    for (const batches of [[[0, 1], [2]], [[0, 1, 2]]]) {
      it(`falls back to the idempotent inserts when a new height repeats an indexed transaction hash (batches ${JSON.stringify(batches)})`, async function () {
        const chain = new SyntheticChain({ txsPerBlock: 3, senders: 2, features: false });
        chain.mine(2);
        const payloads = [0, 1, 2].map((h) => chain.payload(h));
        const repeated = String(payloads[1]!.transactions[1]!.tx_result.hash);
        payloads[2]!.transactions[0]!.tx_result.hash = repeated;
        const opened = await open();
        for (const heights of batches) await opened.writer.write(heights.map((h) => payloads[h]!));
        // the batch with the repeated hash was tried with COPY, then written with the INSERTs
        assert.deepEqual(copied, batches.length === 2 ? [true, false] : [false]);
        const k = opened.db.knex;
        assert.deepEqual((await k.raw(`SELECT height FROM blocks ORDER BY height`)).rows.map((r: any) => r.height), [0, 1, 2]);
        assert.deepEqual((await k.raw(`SELECT block_height, tx_index FROM transactions WHERE hash = ?`, [repeated])).rows.map((r: any) => [r.block_height, r.tx_index]), [[1, 1]]);
        assert.equal(Number((await k.raw(`SELECT count(*) AS n FROM transactions WHERE block_height = 2`)).rows[0].n), 2);
        // the block's other rows are all there, the repeated transaction's state writes included
        const writes = (payloads[2]!.transactions[0]!.tx_result.state as unknown[]).length;
        assert.equal(Number((await k.raw(`SELECT count(*) AS n FROM state_changes WHERE block_height = 2 AND tx_index = 0`)).rows[0].n), writes);
        assert.equal(Number((await k.raw(`SELECT count(*) AS n FROM rewards WHERE block_height = 2`)).rows[0].n) > 0, true);
      });
    }
  });
});
