import assert from 'node:assert/strict';
import { abciQuery, openDevnet } from './devnet-fixture.js';

/**
 * The edge cases of the ABCI query paths, audited against xian-abci `methods/query.py`:
 * `path_parts` drops empty segments, `key = path_parts[1]`; a route that reads `path_parts[1]`
 * without one raises IndexError, which the node answers as code 1 with no value, info or key;
 * an empty path does too (it indexes `path_parts[0]`); unknown contracts are null, not errors.
 */
describe('devnet abci_query edge cases (query.py audit)', function () {
  let net: Awaited<ReturnType<typeof openDevnet>>;
  before(async () => { net = await openDevnet(); });
  after(async () => net.close());

  const refusedWithoutValue = async (path: string) => {
    const r = await abciQuery(net.devnet, path);
    assert.equal(r.code, 1, `${path}: ${JSON.stringify(r)}`);
    assert.equal(r.value, null, path);
    assert.equal(r.info, '', path);
    assert.equal(r.key, null, path);
    return r;
  };

  it('a route that needs a key answers code 1 without one (/get, /get/, //get//)', async () => {
    for (const path of ['/get', '/get/', '//get//', 'get', '/get_next_nonce', '/contract_source/', '/contract_ir', '/contract_methods',
      '/contract_vars', '/contract_info', '/simulate_tx', '/scheduled_state_patches']) {
      const r = await refusedWithoutValue(path);
      assert.match(r.log, /needs a key/, path);
    }
  });

  it('an empty path is an error, not an unknown route', async () => {
    for (const path of ['', '/', '///']) {
      const r = await refusedWithoutValue(path);
      assert.doesNotMatch(r.log, /Unknown query path/);
    }
  });

  it('empty segments and a trailing slash are dropped; the key is the first part', async () => {
    const plain = await abciQuery(net.devnet, '/get/currency.balances:nobody');
    for (const path of ['/get/currency.balances:nobody/', '//get//currency.balances:nobody', 'get/currency.balances:nobody']) {
      assert.deepEqual(await abciQuery(net.devnet, path), plain, path);
    }
    assert.equal(Buffer.from(plain.key!, 'base64').toString(), 'currency.balances:nobody');
  });

  it('unknown contracts and keys are null with code 0; contract_info still answers its record', async () => {
    for (const path of ['/get/nothing.here', '/contract_source/con_nope', '/contract_ir/con_nope', '/contract_methods/con_nope', '/contract_vars/con_nope']) {
      const r = await abciQuery(net.devnet, path);
      assert.deepEqual([r.code, r.value, r.info], [0, null, ''], path);
    }
    const info = await abciQuery(net.devnet, '/contract_info/con_nope');
    assert.equal(info.code, 0);
    assert.deepEqual(JSON.parse(Buffer.from(info.value!, 'base64').toString()), {
      deployer: null, developer: null, has_source: false, initiator: null, name: 'con_nope', owner: null, submitted_at: null,
    });
  });

  it('an unknown route keeps its documented answer (AA==, Unknown query path)', async () => {
    const r = await abciQuery(net.devnet, '/no_such_route/x');
    assert.deepEqual([r.code, r.value, r.log], [1, 'AA==', 'Unknown query path: no_such_route']);
  });
});
