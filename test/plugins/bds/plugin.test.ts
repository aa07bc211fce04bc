import 'reflect-metadata';
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChainNode } from '../../../core/chain/node.js';
import { encodeTransaction, signTransaction } from '../../../core/chain/transaction.js';
import { CoreTokens } from '../../../core/core-tokens.js';
import { silentLogger } from '../../../core/logger.js';
import type { Host } from '../../../host/host.js';
import { DEFAULT_MNEMONIC, deriveAccounts } from '../../../plugins/devnet/node/devnet.js';
import { forEachDatabase, type TestDatabase } from '../../support/databases.js';
import { loadTestConfig } from '../../support/test-host.js';
import { waitFor } from './support/bds-harness.js';

const PROBE = fileURLToPath(new URL('./support/probe-indexer-plugin/index.ts', import.meta.url));
const TOOLS = [
  'get_bds_status', 'list_blocks', 'get_block', 'get_block_by_hash', 'get_indexed_tx', 'list_txs_for_block', 'list_txs_by_sender',
  'list_txs_by_contract', 'get_events_for_tx', 'list_events', 'get_state_history', 'get_state_for_tx', 'get_state_for_block',
  'get_developer_rewards', 'list_shielded_output_tags', 'list_shielded_wallet_history',
];

/** A Host with the devnet (in process), bds on the test database, the query plugin (the indexed-read tools) and the probe indexer plugin. */
async function boot(db: TestDatabase): Promise<Host> {
  const bds = { databaseUrl: db.url, schema: db.schema, pgliteDir: db.pgliteDir, catchupPollMs: 50, retryDelayMs: 100 };
  const config = { home: db.home, plugins: { devnet: { home: join(db.home, 'devnet'), listen: false, printAccounts: false }, bds, query: {}, [PROBE]: {} } };
  const loaded = await loadTestConfig(config);
  // Imported dynamically like the plugins it loads, so both share one copy of core (see dashboard-host.ts).
  const { Host } = await import('../../../host/host.js');
  const host = await Host.create(loaded, { log: silentLogger });
  await host.start();
  return host;
}

describe('the bds plugin in a host (query paths through abci_query and the query plugin\'s indexed-read tools, the indexer extension point)', function () {
  this.timeout(120_000);

  forEachDatabase((target) => {
    let host: Host | null = null;
    afterEach(async () => {
      await host?.stop();
      host = null;
    });

    it('its query paths answer the indexed-read tools from the index', async function () {
      host = await boot(target.fresh());
      const names = host.invoker.visible().map((t) => t.name);
      for (const name of TOOLS) assert.ok(names.includes(name), name);
      const node = host.resolve(CoreTokens.chainNode) as ChainNode;
      const [alice, bob] = deriveAccounts(DEFAULT_MNEMONIC, 2);
      const nonce = Number((await node.query(`/get_next_nonce/${alice!.address}`)).value?.text ?? '0');
      const signed = signTransaction({ chain_id: 'chain-local-1', chi_supplied: 5000, contract: 'currency', function: 'transfer', kwargs: { amount: { __fixed__: '3.25' }, to: bob!.address }, nonce, sender: alice!.address }, alice!.privateKey);
      const sent = await node.broadcastTxCommit(encodeTransaction(signed).hex);
      const call = (name: string, args: unknown = {}) => host!.invoker.call(name, args, 'in-process') as Promise<any>;
      await waitFor(async () => ((await call('get_bds_status')).indexed_height ?? -1) >= Number(sent.height), 30_000, 'indexed');

      const status = await call('get_bds_status');
      assert.equal(status.worker_running, true);
      assert.equal(status.height_lag, 0);
      assert.deepEqual(status.alerts, []);
      const tx = await call('get_indexed_tx', { tx_hash: sent.hash.toLowerCase() });
      assert.equal(tx.found, true);
      assert.equal(tx.transaction.tx_hash, sent.hash);
      assert.equal(tx.transaction.block_height, Number(sent.height));
      assert.equal((await call('get_block', { height: Number(sent.height) })).block.block_hash.length, 64);
      const byHash = await call('get_block_by_hash', { block_hash: (await call('get_block', { height: 1 })).block.block_hash.toLowerCase() });
      assert.equal(byHash.block.height, 1);
      assert.equal((await call('get_block', { height: 9999 })).found, false);
      assert.deepEqual((await call('list_blocks', { limit: 2 })).items.map((b: any) => b.height), [Number(sent.height), Number(sent.height) - 1].filter((h) => h >= 0));
      assert.equal((await call('list_txs_for_block', { block_ref: Number(sent.height) })).items[0].tx_hash, sent.hash);
      assert.equal((await call('list_txs_by_sender', { sender: alice!.address })).items[0].tx_hash, sent.hash);
      assert.ok((await call('list_txs_by_contract', { contract: 'currency', limit: 1 })).items.length === 1);
      const events = await call('get_events_for_tx', { tx_hash: sent.hash });
      assert.equal(events.items[0].event, 'Transfer');
      assert.ok('created' in events.items[0]);
      const listed = await call('list_events', { contract: 'currency', event: 'Transfer', after_id: 0 });
      assert.equal(listed.next_after_id, listed.items[listed.items.length - 1].id);
      assert.deepEqual((await call('list_events', { contract: 'currency', event: 'Transfer', after_id: listed.next_after_id })).items, []);
      const history = await call('get_state_history', { key: `currency.balances:${bob!.address}` });
      assert.equal(history.items[0].tx_hash, sent.hash);
      assert.ok((await call('get_state_for_tx', { tx_hash: sent.hash })).items.length >= 2);
      assert.ok((await call('get_state_for_block', { block_ref: Number(sent.height) })).items.length >= 2);
      const rewards = await call('get_developer_rewards', { recipient_key: 'nobody' });
      assert.deepEqual([rewards.total_rewards, rewards.reward_count], ['0', 0]);
      assert.deepEqual((await call('list_shielded_output_tags', { tag_value: '0xabc' })).items, []);
      assert.equal((await call('list_shielded_wallet_history', { tag_value: '0xabc', after_note_index: 5 })).next_after_note_index, 5);

      await assert.rejects(() => call('list_blocks', { limit: 5000 }), (err: any) => err.code === 'invalid_arguments' && /limit/.test(JSON.stringify(err.details ?? err.message)));
      await assert.rejects(() => call('get_indexed_tx', { tx_hash: 'nope' }), (err: any) => /tx_hash/.test(JSON.stringify(err.details ?? err.message)));
      // A NUL (PostgreSQL text cannot hold one) is the caller's mistake, named, never a retryable 503 with SQL in it (issue 19 item 6).
      for (const [tool, args, field] of [
        ['list_events', { contract: 'con\u0000x', event: 'Transfer' }, 'contract'],
        ['list_txs_by_sender', { sender: 'a\u0000b' }, 'sender'],
        ['get_state_history', { key: 'currency.balances:a\u0000b' }, 'key'],
        ['list_shielded_output_tags', { tag_value: '\u0000' }, 'tag_value'],
      ] as const) {
        await assert.rejects(() => call(tool, args), (err: any) => {
          assert.equal(err.code, 'invalid_arguments', `${tool}: ${err.message}`);
          assert.equal(err.status < 500, true);
          assert.equal(err.details?.field, field);
          assert.match(err.message, /NUL/);
          return true;
        });
      }

      // Query paths through the node's abci_query (the devnet consults the registry), and a contributed projection.
      const answer = await node.query('/bds_status');
      assert.equal(answer.info, 'dict');
      assert.equal((answer.value!.json as any).indexed.indexed_height >= Number(sent.height), true);
      const probe = await node.query('/probe_transfers');
      assert.equal(probe.value?.text, '1');
      const bad = await node.query('/blocks/limit=5000');
      assert.equal(bad.code, 1);
      assert.match(bad.log, /limit must be an integer from 0 to 1000/);
      // Through abci_query a NUL is refused by the path itself, and no answer carries SQL.
      for (const path of ['/events/con\u0000x/Transfer/limit=1', '/state_history/currency.balances:\u0000/limit=1', '/txs_by_sender/\u0000/limit=1']) {
        const refused = await node.query(path);
        assert.equal(refused.code, 1, path);
        assert.match(refused.log, /must not contain a NUL character/, path);
        assert.doesNotMatch(refused.log, /select|from|where|\$\d|\?/i, `${path}: ${refused.log}`);
      }
    });
  });
});
