import { strict as assert } from 'node:assert';
import type { BdsService } from '../../../plugins/bds/bds-service.js';
import { forEachDatabase } from '../../support/databases.js';
import { openService, q, query, waitIndexed } from './support/bds-harness.js';
import { senderOf, SyntheticChain } from './support/synthetic-chain.js';

const BLOCK_FIELDS = ['app_hash', 'block_hash', 'block_time', 'block_time_iso', 'created_at', 'height', 'tx_count'];
const TX_FIELDS = ['block_hash', 'block_height', 'block_time', 'chi_used', 'contract', 'created_at', 'envelope', 'function', 'nonce', 'payload', 'result', 'sender', 'status_code', 'success', 'tx_hash', 'tx_index'];
const EVENT_FIELDS = ['block_height', 'caller', 'contract', 'created_at', 'data', 'data_indexed', 'event', 'event_index', 'id', 'signer', 'tx_hash', 'tx_index'];
const keysOf = (row: object) => Object.keys(row).sort();

describe('BDS query paths (spec part 4, bds.md §6)', function () {
  forEachDatabase((target) => {
    let service: BdsService;
    let chain: SyntheticChain;

    before(async function () {
      this.timeout(120_000);
      chain = new SyntheticChain({ txsPerBlock: 4, senders: 5 });
      chain.mine(12);
      service = await openService(target.fresh({ suite: true }), chain);
      await service.prepare();
      service.start();
      await waitIndexed(service, 12);
    });
    after(async () => service?.stop());

    describe('blocks and transactions', function () {
      it('/blocks lists newest first with the block row fields', async function () {
        const page = await q(service, '/blocks/limit=5/offset=0');
        assert.deepEqual(page.map((b: any) => b.height), [12, 11, 10, 9, 8]);
        assert.deepEqual(keysOf(page[0]), BLOCK_FIELDS);
        assert.equal(page[0].block_time_iso, page[0].created_at);
        assert.match(page[0].block_time_iso, /^2026-01-01T00:00:12\.\d{6}\+00:00$/);
        assert.equal(typeof page[0].block_time, 'bigint', 'ns block time stays an exact integer');
        const rest = await q(service, '/blocks/limit=100/offset=5');
        assert.deepEqual(rest.map((b: any) => b.height), [7, 6, 5, 4, 3, 2, 1, 0]);
        assert.equal(rest[7].block_hash, 'GENESIS');
      });

      it('/block and /block_by_hash answer one object (any hash case) or null', async function () {
        const b = await q(service, '/block/3');
        assert.equal(b.height, 3);
        assert.deepEqual(await q(service, `/block_by_hash/${b.block_hash.toLowerCase()}`), b);
        const missing = await query(service, '/block/99');
        assert.deepEqual([missing.info, missing.raw.text], ['', null]);
        assert.equal((await query(service, '/block/3')).info, 'dict');
      });

      it('/tx exposes the hash as tx_hash; "None" results are null, failures keep their repr', async function () {
        const p = chain.payload(5).transactions[1]!;
        const hash = String(p.tx_result.hash);
        const tx = await q(service, `/tx/${hash.toLowerCase()}`);
        assert.deepEqual(keysOf(tx), TX_FIELDS);
        assert.equal(tx.tx_hash, hash);
        assert.equal(tx.block_height, 5);
        assert.deepEqual(tx.payload, p.payload);
        assert.deepEqual(tx.envelope, p.envelope);
        const failedTx = chain.payload(7).transactions.find((t) => t.tx_result.status === 1)!;
        const failed = await q(service, `/tx/${failedTx.tx_result.hash}`);
        assert.equal(failed.success, false);
        assert.equal(failed.status_code, 1);
        assert.equal(failed.result, "AssertionError('Not enough coins to send!')");
        const ok = (await q(service, '/txs_for_block/6')).find((t: any) => t.success);
        assert.equal(ok.result, null);
      });

      it('/txs_for_block takes a height or a 64-character block hash, in tx_index order', async function () {
        const byHeight = await q(service, '/txs_for_block/4');
        assert.deepEqual(byHeight.map((t: any) => t.tx_index), [0, 1, 2, 3, 5], 'the state-patch pseudo-tx follows at the block tx count');
        assert.equal(byHeight[4].contract, 'STATE_PATCHER');
        const hash = (await q(service, '/block/4')).block_hash;
        assert.deepEqual(await q(service, `/txs_for_block/${hash}`), byHeight);
        await assert.rejects(() => q(service, '/txs_for_block/abc'), /block height or hash must be a non-negative integer/);
      });

      it('/txs_by_sender and /txs_by_contract page newest first without overlap', async function () {
        const sender = senderOf(1);
        const all = await q(service, `/txs_by_sender/${sender}/limit=1000/offset=0`);
        assert.ok(all.length > 4);
        const sorted = [...all].sort((a: any, b: any) => b.block_height - a.block_height || b.tx_index - a.tx_index);
        assert.deepEqual(all, sorted);
        const paged = [...(await q(service, `/txs_by_sender/${sender}/limit=3/offset=0`)), ...(await q(service, `/txs_by_sender/${sender}/limit=1000/offset=3`))];
        assert.deepEqual(paged, all);
        const keyset: any[] = [];
        let before = '';
        for (;;) {
          const page = await q(service, `/txs_by_sender/${sender}/limit=2${before}`);
          if (!page.length) break;
          keyset.push(...page);
          before = `/before=${page[page.length - 1].block_height}:${page[page.length - 1].tx_index}`;
        }
        assert.deepEqual(keyset, all, 'the before= keyset cursor walks the same rows');
        await assert.rejects(() => q(service, `/txs_by_sender/${sender}/before=12`), /before must be <block_height>:<tx_index>/);
        const currency = await q(service, '/txs_by_contract/currency/limit=5/offset=0');
        assert.equal(currency.length, 5);
        assert.ok(currency.every((t: any) => t.contract === 'currency'));
      });

      it('/addresses wraps its items in {available, items, limit, offset}', async function () {
        const r = await q(service, '/addresses/limit=2/offset=0');
        assert.deepEqual(Object.keys(r).sort(), ['available', 'items', 'limit', 'offset']);
        assert.equal(r.items.length, 2);
        const sys = (await q(service, '/addresses/limit=100/offset=0')).items.find((a: any) => a.address === 'sys');
        assert.equal(sys.tx_count, 2, 'genesis and the state-patch pseudo-transaction');
        assert.equal(sys.first_block_height, 0);
        assert.equal(sys.last_block_height, 4);
      });
    });

    describe('events', function () {
      it('/events_for_tx lists a transaction’s events in emission order', async function () {
        const tx = chain.payload(7).transactions.find((t) => t.tx_result.status === 0)!;
        const events = await q(service, `/events_for_tx/${tx.tx_result.hash}`);
        assert.equal(events.length, 1);
        assert.deepEqual(keysOf(events[0]), EVENT_FIELDS);
        assert.equal(events[0].event, 'Transfer');
        assert.deepEqual({ ...events[0].data }, { amount: (tx.tx_result.events as any)[0].data.amount });
      });

      it('/events by offset is newest first; after_id resumes oldest first with no gap or repeat', async function () {
        const newest = await q(service, '/events/currency/Transfer/limit=1000/offset=0');
        const order = [...newest].sort((a: any, b: any) => b.block_height - a.block_height || b.tx_index - a.tx_index || b.event_index - a.event_index);
        assert.deepEqual(newest, order);
        const consumed: any[] = [];
        let cursor = 0;
        for (;;) {
          const page = await q(service, `/events/currency/Transfer/limit=4/after_id=${cursor}`);
          if (!page.length) break;
          consumed.push(...page);
          cursor = page[page.length - 1].id;
        }
        assert.deepEqual(consumed.map((e) => e.id), newest.map((e: any) => e.id).sort((a: number, b: number) => a - b));
        const offsetIgnored = await q(service, `/events/currency/Transfer/limit=2/offset=50/after_id=${consumed[2].id}`);
        assert.deepEqual(offsetIgnored, consumed.slice(3, 5));
      });

      it('/recent_events is newest first in an envelope', async function () {
        const r = await q(service, '/recent_events/limit=3/offset=0');
        assert.equal(r.available, true);
        assert.equal(r.items.length, 3);
        assert.ok(r.items[0].created_at >= r.items[2].created_at);
      });
    });

    describe('state and tokens', function () {
      it('/state matches the prefix literally, ordered by key', async function () {
        const rows = await q(service, '/state/currency.balances:sender_000/limit=100/offset=0');
        assert.deepEqual(rows.map((r: any) => r.key), [0, 1, 2, 3, 4].map((i) => `currency.balances:${senderOf(i)}`));
        assert.deepEqual(keysOf(rows[0]), ['key', 'last_block_height', 'last_tx_hash', 'updated_at', 'value']);
        assert.deepEqual(await q(service, '/state/currency.balances:sender%/limit=100/offset=0'), []);
        assert.deepEqual(await q(service, '/state/currency.balances_sender/limit=100/offset=0'), [], '_ is not a wildcard');
      });

      it('/state_history, /state_previous, /state_for_tx and /state_for_block', async function () {
        const history = await q(service, '/state_history/currency.balances:dev_key/limit=3/offset=0');
        assert.deepEqual(history.map((h: any) => h.block_height), [12, 12, 12].slice(0, history.length).map((_, i) => history[i].block_height));
        assert.ok(history[0].block_height >= history[1].block_height);
        const prev = await q(service, '/state_previous/currency.balances:dev_key');
        assert.deepEqual(prev.current_value, history[0].value);
        assert.deepEqual(prev.previous_value, history[1].value);
        assert.equal(prev.previous_tx_hash, history[1].tx_hash);
        const genesisOnly = await q(service, '/state_previous/currency.balances:founder');
        assert.equal(genesisOnly.current_origin_type, 'genesis');
        assert.equal(genesisOnly.previous_change_id, null);
        const tx = chain.payload(8).transactions[0]!;
        const writes = await q(service, `/state_for_tx/${tx.tx_result.hash}`);
        assert.deepEqual(writes.map((w: any) => w.key), (tx.tx_result.state as any[]).map((s) => s.key));
        assert.deepEqual(writes.map((w: any) => w.write_index), writes.map((_: unknown, i: number) => i));
        const block = await q(service, '/state_for_block/8');
        assert.ok(block.length >= writes.length);
        assert.deepEqual(keysOf(block[0]), ['key', 'origin_type', 'tx_hash', 'tx_index', 'value', 'write_index']);
      });

      it('/token_contracts and /token_balances read XSC001 contracts', async function () {
        const tokens = await q(service, '/token_contracts/limit=10/offset=0');
        assert.deepEqual(tokens.items.map((t: any) => [t.contract, t.name, t.symbol]), [['con_token', 'Token', 'TKN2']]);
        assert.equal(tokens.total, 1);
        const holder = await q(service, `/token_balances/${senderOf(0)}/limit=10/offset=0`);
        assert.deepEqual(holder.items.map((i: any) => [i.contract, i.balance]), [['con_token', '1000000']]);
        assert.equal(holder.address, senderOf(0));
        assert.equal((await q(service, `/token_balances/${senderOf(1)}/limit=10/offset=0`)).items.length, 0, 'zero balances hidden');
        assert.equal((await q(service, `/token_balances/${senderOf(1)}/limit=10/offset=0/include_zero=true`)).items[0].balance, '0');
      });
    });

    describe('projections and patches', function () {
      it('/developer_rewards aggregates developer rewards (always one row)', async function () {
        let count = 0;
        for (let h = 1; h <= 12; h++) for (const t of chain.payload(h).transactions) if (t.tx_result.status === 0 && t.payload && (t.payload as any).contract === 'currency') count++;
        const r = await q(service, '/developer_rewards/dev_key');
        assert.equal(r.reward_count, count);
        assert.equal(Number(r.total_rewards), count * 0.25);
        assert.equal(typeof r.total_rewards, 'string');
        assert.equal(r.contract_count, 1);
        const none = await q(service, '/developer_rewards/nobody');
        assert.deepEqual([none.total_rewards, none.reward_count, none.first_block_height], ['0', 0, null]);
        const summary = await q(service, '/contract_summary/con_token');
        assert.equal(summary.xsc001, true);
        assert.equal(summary.creator, senderOf(0));
      });

      it('/shielded_output_tags by offset and by after_id; kinds', async function () {
        const page = await q(service, '/shielded_output_tags/0xsync_b/limit=10/offset=0/kind=sync_hint');
        assert.equal(page.items.length, 1);
        assert.equal(page.items[0].note_index, 1);
        assert.equal(page.items[0].tag_kind, 'sync_hint');
        const after = await q(service, `/shielded_output_tags/0xsync_b/limit=10/after_id=0/kind=SYNC_HINT`);
        assert.deepEqual(after.items, page.items);
        assert.deepEqual((await q(service, `/shielded_output_tags/0xsync_b/limit=10/after_id=${page.items[0].id}/kind=sync_hint`)).items, []);
        assert.equal((await q(service, '/shielded_output_tags/0xdisc_1/limit=10/offset=0/kind=discovery_tag')).items[0].output_index, 0);
        await assert.rejects(() => q(service, '/shielded_output_tags/x/limit=10/kind=bogus'), /kind must be sync_hint or discovery_tag/);
      });

      it('/shielded_wallet_history returns every output from the note index on, tag data only where it matches', async function () {
        const r = await q(service, '/shielded_wallet_history/0xsync_b/limit=10/after_note_index=1/kind=sync_hint');
        assert.deepEqual(r.items.map((i: any) => i.note_index), [1, 2]);
        assert.equal(r.items[0].tag_value, '0xsync_b');
        assert.match(r.items[0].output_payload, /^0x7b/);
        assert.equal(r.items[1].tag_value, null);
        assert.equal(r.items[1].output_payload, null);
        assert.equal(r.after_note_index, 1);
        assert.deepEqual((await q(service, '/shielded_wallet_history/0xsync_b/limit=0/after_note_index=0')).items, []);
      });

      it('/state_patches, /state_patches_for_block, /state_patch, /state_changes_for_patch', async function () {
        const patches = await q(service, '/state_patches/limit=10/offset=0');
        assert.equal(patches.length, 1);
        assert.equal(patches[0].patch_count, 2);
        assert.deepEqual(await q(service, '/state_patches_for_block/4'), patches);
        assert.deepEqual(await q(service, `/state_patch/${patches[0].hash.toUpperCase()}`), patches[0]);
        const changes = await q(service, `/state_changes_for_patch/${patches[0].hash}`);
        assert.deepEqual(changes.map((c: any) => [c.key, c.value]), [['currency.balances:patched', '42'], ['con_token.metadata:token_symbol', 'TKN2']]);
        assert.equal((await query(service, '/state_patch/unknown')).raw.text, null);
      });
    });

    describe('limits and parameters', function () {
      for (const [path, message] of [
        ['/blocks/limit=1001/offset=0', /limit must be an integer from 0 to 1000, got 1001/],
        ['/blocks/limit=abc', /limit must be an integer from 0 to 1000, got "abc"/],
        ['/blocks/limit=-1', /limit must be an integer from 0 to 1000/],
        ['/blocks/limit=5/offset=-3', /offset must be an integer from 0/],
        ['/events/currency/Transfer/limit=5/after_id=-1', /after_id must be an integer from 0/],
        ['/block/abc', /height must be a non-negative integer, got "abc"/],
        ['/tx', /missing tx_hash/],
      ] as const) {
        it(`${path} is refused with a clear error`, async function () {
          await assert.rejects(() => q(service, path), message);
        });
      }

      it('limit defaults to 100 and accepts 0', async function () {
        assert.equal((await q(service, '/txs_by_contract/currency')).length, Math.min(100, (await q(service, '/txs_by_contract/currency/limit=1000')).length));
        assert.deepEqual(await q(service, '/blocks/limit=0'), []);
      });
    });

    describe('/bds_status and /bds_spool', function () {
      it('reports every spec field, indexed height equal to the node height', async function () {
        const s = await q(service, '/bds_status');
        for (const field of ['worker_running', 'current_block_height', 'height_lag', 'queue_depth', 'spool_pending_count', 'alerts']) assert.ok(field in s, field);
        assert.equal(s.worker_running, true);
        assert.equal(s.indexed.indexed_height, 12);
        assert.equal(s.current_block_height, 12);
        assert.equal(s.height_lag, 0);
        assert.equal(s.db_status, 'ok');
        assert.deepEqual(s.alerts, []);
        assert.equal(s.indexed.indexed_block_count, 13);
        assert.deepEqual(await q(service, '/bds_spool/limit=10/offset=0'), []);
      });
    });
  });
});
