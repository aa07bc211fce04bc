import { strict as assert } from 'node:assert';
import { BdsDatabase } from '../../../plugins/bds/database/bds-database.js';
import { prepareSchema } from '../../../plugins/bds/database/bds-schema.js';
import type { BdsIndexer, IndexedBlock } from '../../../plugins/bds/indexer-point.js';
import { BUILTIN_INDEXERS } from '../../../plugins/bds/indexers/builtin-indexers.js';
import { isXsc001Source } from '../../../plugins/bds/indexers/xsc001.js';
import { BlockGapError, BlockIdentityMismatchError, BlockParentMismatchError, BlockWriter } from '../../../plugins/bds/writer/block-writer.js';
import { forEachDatabase, type TestDatabase } from '../../support/databases.js';
import { SyntheticChain, senderOf } from './support/synthetic-chain.js';
import { XSC001_SOURCE as XSC001_SAMPLE_SOURCE } from '../../../plugins/devnet/engine/contracts/xsc001-token.js';

async function open(db: TestDatabase, indexers: BdsIndexer[] = []): Promise<{ db: BdsDatabase; writer: BlockWriter }> {
  const handle = await BdsDatabase.open({ url: db.url, pgliteDir: db.pgliteDir, schema: db.schema });
  await prepareSchema(handle, indexers);
  return { db: handle, writer: new BlockWriter(handle, () => [...BUILTIN_INDEXERS, ...indexers]) };
}

describe('BDS block writer (bds.md §3)', function () {
  this.timeout(60_000);

  it('recognises XSC001 sources by their exported signatures', function () {
    assert.equal(isXsc001Source(XSC001_SAMPLE_SOURCE), true);
    assert.equal(isXsc001Source(XSC001_SAMPLE_SOURCE.replace('def transfer(amount: float, to: str)', 'def transfer(to: str, amount: float)')), false);
    assert.equal(isXsc001Source(XSC001_SAMPLE_SOURCE.replace('balances = Hash(default_value=0)', 'bal = Hash()')), false);
  });

  forEachDatabase((target) => {
    let db: BdsDatabase | null = null;
    afterEach(async () => {
      await db?.close();
      db = null;
    });

    it('writes genesis as block 0 with its pseudo-transaction, state and contracts', async function () {
      const chain = new SyntheticChain();
      const opened = await open(target.fresh());
      db = opened.db;
      await opened.writer.write([chain.payload(0)]);
      const block = (await db.knex.raw(`SELECT * FROM blocks`)).rows[0];
      assert.deepEqual([block.height, block.block_hash, block.block_time, block.block_time_iso, block.tx_count, block.app_hash],
        [0, 'GENESIS', 0, '1970-01-01T00:00:00+00:00', 1, 'GENESIS']);
      const tx = (await db.knex.raw(`SELECT * FROM transactions`)).rows[0];
      assert.deepEqual([tx.hash, tx.sender, tx.contract, tx.function, tx.nonce, tx.success, tx.chi_used], ['GENESIS', 'sys', 'GENESIS_SUBMISSION', 'process_genesis_block', 0, true, 0]);
      assert.deepEqual({ ...tx.result }, { genesis_entries: 3, status: 'ok' });
      const changes = (await db.knex.raw(`SELECT key, origin_type, new_value_numeric FROM state_changes ORDER BY write_index`)).rows;
      assert.deepEqual(changes.map((c: any) => [c.key, c.origin_type]), [['currency.balances:founder', 'genesis'], ['currency.__source__', 'genesis'], ['currency.metadata:token_name', 'genesis']]);
      assert.equal(changes[0].new_value_numeric, '1000000');
      assert.equal((await db.knex.raw(`SELECT name FROM contracts`)).rows[0].name, 'currency');
    });

    it('links each change to its predecessor, inside a batch and across batches', async function () {
      const chain = new SyntheticChain({ txsPerBlock: 5, senders: 2 });
      chain.mine(6);
      const opened = await open(target.fresh());
      db = opened.db;
      await opened.writer.write([0, 1, 2].map((h) => chain.payload(h)));
      await opened.writer.write([3, 4, 5, 6].map((h) => chain.payload(h)));
      const rows = (await db.knex.raw(`SELECT change_id, key, previous_change_id, previous_tx_hash, tx_hash FROM state_changes ORDER BY block_height, tx_index, write_index`)).rows as any[];
      const last = new Map<string, any>();
      for (const r of rows) {
        const prev = last.get(r.key);
        assert.equal(r.previous_change_id, prev?.change_id ?? null, `predecessor of ${r.key}`);
        assert.equal(r.previous_tx_hash, prev?.tx_hash ?? null);
        last.set(r.key, r);
      }
      const state = (await db.knex.raw(`SELECT key, last_change_id FROM state`)).rows as any[];
      for (const s of state) assert.equal(s.last_change_id, last.get(s.key).change_id, `state head of ${s.key}`);
    });

    it('upserts addresses: counts add up, first stays, last follows the newest transaction', async function () {
      const chain = new SyntheticChain({ txsPerBlock: 4, senders: 3, features: false });
      chain.mine(5);
      const opened = await open(target.fresh());
      db = opened.db;
      await opened.writer.write([0, 1, 2].map((h) => chain.payload(h)));
      await opened.writer.write([3, 4, 5].map((h) => chain.payload(h)));
      const txs = (await db.knex.raw(`SELECT sender, block_height, tx_index, hash FROM transactions WHERE sender <> 'sys' ORDER BY block_height, tx_index`)).rows as any[];
      for (let i = 0; i < 3; i++) {
        const mine = txs.filter((t) => t.sender === senderOf(i));
        const a: any = (await db.knex.raw(`SELECT * FROM addresses WHERE address = ?`, [senderOf(i)])).rows[0];
        assert.equal(a.tx_count, mine.length);
        assert.equal(a.first_block_height, mine[0].block_height);
        assert.equal(a.last_block_height, mine[mine.length - 1].block_height);
        assert.equal(a.last_tx_index, mine[mine.length - 1].tx_index);
        assert.equal(a.last_tx_hash, mine[mine.length - 1].hash);
      }
    });

    it('skips a block already stored with the same identity and refuses a different one', async function () {
      const chain = new SyntheticChain();
      chain.mine(3);
      const opened = await open(target.fresh());
      db = opened.db;
      await opened.writer.write([0, 1, 2].map((h) => chain.payload(h)));
      const again = await opened.writer.write([1, 2, 3].map((h) => chain.payload(h)));
      assert.deepEqual(again, { written: [3], skipped: [1, 2] });
      const forged = chain.payload(2);
      forged.app_hash = 'FF'.repeat(32);
      await assert.rejects(() => opened.writer.write([forged]), (err: unknown) => err instanceof BlockIdentityMismatchError && /BDS block identity mismatch at height 2/.test(err.message));
      const counts = (await db.knex.raw(`SELECT (SELECT count(*) FROM transactions) AS t, (SELECT count(*) FROM state_changes) AS c`)).rows[0];
      const rewritten = await opened.writer.write([1, 2, 3].map((h) => chain.payload(h)));
      assert.deepEqual(rewritten.written, []);
      assert.deepEqual((await db.knex.raw(`SELECT (SELECT count(*) FROM transactions) AS t, (SELECT count(*) FROM state_changes) AS c`)).rows[0], counts, 'no duplicate rows');
    });

    it('refuses gaps and blocks that do not extend the stored chain', async function () {
      const chain = new SyntheticChain();
      chain.mine(5);
      const opened = await open(target.fresh());
      db = opened.db;
      await opened.writer.write([0, 1].map((h) => chain.payload(h)));
      await assert.rejects(() => opened.writer.write([chain.payload(3)]), BlockGapError);
      await assert.rejects(() => opened.writer.write([chain.payload(2), chain.payload(4)]), BlockGapError);
      const other = new SyntheticChain({ chainId: 'another' });
      other.mine(2);
      await assert.rejects(() => opened.writer.write([other.payload(2)]), BlockParentMismatchError);
    });

    it('runs contributed indexers in the same transaction, with the ids of the block rows', async function () {
      const chain = new SyntheticChain();
      chain.mine(3);
      const seen: IndexedBlock[] = [];
      let fail = true;
      const probe: BdsIndexer = {
        name: 'probe',
        capability: 'read',
        migrations: [{ name: '0001', up: async (k) => { await k.raw(`CREATE TABLE probe_rows (event_id BIGINT PRIMARY KEY REFERENCES events(id))`); } }],
        async apply(block, trx) {
          seen.push(block);
          for (const e of block.events) await trx.raw(`INSERT INTO probe_rows VALUES (?) ON CONFLICT DO NOTHING`, [String(e.id)]);
          if (fail && block.height === 2) throw new Error('probe failure');
        },
      };
      const opened = await open(target.fresh(), [probe]);
      db = opened.db;
      await assert.rejects(() => opened.writer.write([0, 1, 2].map((h) => chain.payload(h))), /BDS indexer probe failed at height 2: probe failure/);
      assert.equal((await db.knex.raw(`SELECT count(*) AS n FROM blocks`)).rows[0].n, 0, 'the whole batch rolled back');
      fail = false;
      await opened.writer.write([0, 1, 2].map((h) => chain.payload(h)));
      const ids = (await db.knex.raw(`SELECT id FROM events ORDER BY id`)).rows.map((r: any) => r.id);
      assert.deepEqual((await db.knex.raw(`SELECT event_id FROM probe_rows ORDER BY event_id`)).rows.map((r: any) => r.event_id), ids);
      const last = seen[seen.length - 1]!;
      const changeIds = (await db.knex.raw(`SELECT change_id FROM state_changes WHERE block_height = 2 ORDER BY tx_index, write_index`)).rows.map((r: any) => r.change_id);
      assert.deepEqual(last.state_changes.map((c) => c.change_id), changeIds);
    });

    it('records tokens, rewards, shielded outputs and patches through the built-in indexers', async function () {
      const chain = new SyntheticChain();
      chain.mine(4);
      const opened = await open(target.fresh());
      db = opened.db;
      await opened.writer.write([0, 1, 2, 3, 4].map((h) => chain.payload(h)));
      const token = (await db.knex.raw(`SELECT * FROM contracts WHERE name = 'con_token'`)).rows[0];
      assert.equal(token.xsc001, true);
      assert.equal(token.submitted_at_block, 2);
      assert.match(token.submitted_at, /^2026-01-01T00:00:02\+00:00$/);
      const rewards = (await db.knex.raw(`SELECT type, recipient_key, source_contract, value FROM rewards ORDER BY id LIMIT 2`)).rows;
      assert.deepEqual(rewards.map((r: any) => ({ ...r })), [
        { type: 'developer_reward', recipient_key: 'dev_key', source_contract: 'currency', value: '0.25' },
        { type: 'validator_reward', recipient_key: 'validator_key', source_contract: 'currency', value: '0.5' },
      ]);
      const outputs = (await db.knex.raw(`SELECT output_index, note_index, commitment, payload_hash, action FROM shielded_outputs ORDER BY output_index`)).rows;
      assert.deepEqual(outputs.map((o: any) => [o.output_index, o.note_index, o.commitment, o.payload_hash, o.action]), [[0, 0, '0xc0', '0xh0', 'deposit'], [1, 1, '0xc1', '0xh1', 'deposit'], [2, 2, '0xc2', '0xh2', 'deposit']]);
      const tags = (await db.knex.raw(`SELECT output_index, tag_kind, tag_value FROM shielded_output_tags ORDER BY output_index, tag_kind`)).rows;
      assert.deepEqual(tags.map((t: any) => [t.output_index, t.tag_kind, t.tag_value]), [
        [0, 'discovery_tag', '0xdisc_1'], [0, 'sync_hint', '0xsync_a'], [1, 'discovery_tag', '0xdisc_2'], [1, 'sync_hint', '0xsync_b'],
      ], 'the malformed third payload yields no tags');
      const patch = (await db.knex.raw(`SELECT hash, block_height, patch_count FROM state_patches`)).rows[0];
      assert.deepEqual([patch.hash, patch.block_height, patch.patch_count], ['ef'.repeat(32), 4, 2]);
      const pseudo = (await db.knex.raw(`SELECT * FROM transactions WHERE contract = 'STATE_PATCHER'`)).rows[0];
      assert.deepEqual([pseudo.hash, pseudo.tx_index, pseudo.sender, pseudo.function], ['ef'.repeat(32), 4, 'sys', 'STATE_PATCH']);
      assert.deepEqual({ ...pseudo.result }, { bundle_count: 1, comment: 'Governed state patch pseudo-transaction', patch_count: 2 });
    });
  });
});
