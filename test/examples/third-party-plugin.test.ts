import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ChainNode } from '../../core/chain/node.js';
import { encodeTransaction, signTransaction } from '../../core/chain/transaction.js';
import { CoreTokens } from '../../core/core-tokens.js';
import { BdsTokens } from '../../plugins/bds/index.js';
import { DEFAULT_MNEMONIC, deriveAccounts } from '../../plugins/devnet/node/devnet.js';
import { pgliteTemplateDir } from '../support/databases.js';
import { bootTestHost, postJson, request } from '../support/test-host.js';
import { buildThirdPartyPackage, THIRD_PARTY } from '../support/third-party-package.js';

/**
 * The proof that chainhost is a framework for third parties: examples/third-party-plugin is a
 * package of its own that imports only the published entry points, compiles against their
 * emitted declarations (the build fails on a type error), and is loaded by path as compiled
 * JavaScript — its tool, its route and its BDS indexer included.
 */
describe('the third-party plugin package (examples/third-party-plugin)', function () {
  this.timeout(600_000);
  before(() => buildThirdPartyPackage());

  it('depends on the host by a file: link and imports nothing but chainhost/plugin and chainhost/chain', async () => {
    const pkg = JSON.parse(await readFile(path.join(THIRD_PARTY, 'package.json'), 'utf8'));
    assert.equal(pkg.dependencies.chainhost, 'file:../..');
    for (const file of await readdir(path.join(THIRD_PARTY, 'src'))) {
      const source = await readFile(path.join(THIRD_PARTY, 'src', file), 'utf8');
      const specifiers = [...source.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]);
      assert.ok(specifiers.length > 0, file);
      for (const s of specifiers) assert.match(s!, /^chainhost\/(plugin|chain)$/, `${file} imports ${s}`);
    }
  });

  it('serves its tool, its route and its BDS projection in a host with the devnet and bds', async () => {
    const home = await mkdtemp(path.join(os.tmpdir(), 'chainhost-third-party-'));
    await cp(await pgliteTemplateDir(), path.join(home, 'bds'), { recursive: true });
    const config = {
      home,
      tools: { http: { host: '127.0.0.1', port: 0 } },
      plugins: { devnet: { listen: false, printAccounts: false }, bds: { catchupPollMs: 50, retryDelayMs: 100 }, [THIRD_PARTY]: { greeting: 'hi' } },
    };
    const h = await bootTestHost(config);
    try {
      const called = await postJson(h.url('/tools/example_greet'), { name: 'Ada' });
      assert.deepEqual([called.status, called.json], [200, { message: 'hi, Ada' }]);
      const bad = await postJson(h.url('/tools/example_greet'), { name: 7 });
      assert.deepEqual([bad.status, bad.json.error.details.field], [422, 'name']);
      // Thrown by the plugin's own copy of ApiError (dist/), recognised by its brand: 422, not 500.
      const blank = await postJson(h.url('/tools/example_greet'), { name: '  ' });
      assert.deepEqual([blank.status, blank.json.error.code], [422, 'not_greetable']);
      assert.deepEqual((await request(h.url('/example/greeting?name=Bob'))).json, { message: 'hi, Bob' });

      const node = h.host.resolve(CoreTokens.chainNode) as ChainNode;
      const [alice, bob] = deriveAccounts(DEFAULT_MNEMONIC, 2);
      const nonce = Number((await node.query(`/get_next_nonce/${alice!.address}`)).value?.text ?? '0');
      const signed = signTransaction({ chain_id: 'chain-local-1', chi_supplied: 5000, contract: 'currency', function: 'transfer', kwargs: { amount: { __fixed__: '1.5' }, to: bob!.address }, nonce, sender: alice!.address }, alice!.privateKey);
      const sent = await node.broadcastTxCommit(encodeTransaction(signed).hex);
      assert.equal(await h.host.resolve(BdsTokens.database).waitForHeight(Number(sent.height), 60_000), true, 'indexed');
      // The contributed query path, answered through the node's abci_query from the contributed projection.
      assert.equal((await node.query(`/example_transfers/${alice!.address}`)).value?.text, '1');
      assert.equal((await node.query(`/example_transfers/${bob!.address}`)).value?.text, '0');
      const refused = await node.query('/example_transfers/not-an-address');
      assert.equal(refused.code, 1);
      assert.match(refused.log, /address must be 64 lowercase hex characters$/);
    } finally {
      await h.stop();
      await rm(home, { recursive: true, force: true });
    }
  });

  it('without bds or a tool server it contributes just its tool', async () => {
    const h = await bootTestHost({ plugins: { [THIRD_PARTY]: {} } });
    try {
      assert.deepEqual(h.host.tools.values().map((t) => t.name), ['example_greet']);
      assert.deepEqual(h.host.routes.values(), []);
      assert.equal(h.host.queryPaths.resolve('/example_transfers/x'), undefined);
    } finally {
      await h.stop();
    }
  });

  it('has its options validated by its own schema, naming the key', async () => {
    await assert.rejects(
      bootTestHost({ plugins: { [THIRD_PARTY]: { greeting: '' } } }),
      (err: Error) => /plugins\..*third-party-plugin\.greeting="": /.test(err.message),
    );
  });
});
