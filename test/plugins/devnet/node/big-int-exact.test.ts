import assert from 'node:assert/strict';
import type { DevAccount } from '../../../../plugins/devnet/node/devnet.js';
import { abciQuery, decodeData, openDevnet, signedTx, txParam, valueText } from './devnet-fixture.js';

/**
 * A deployed contract's int literals past 2^53 stay exact (issue #35): the devnet loads a stored
 * module's IR with the contracting package's exact reader, so `9007199254740993` is not rounded
 * to `9007199254740992` in a call's result, in state, or in a dry run.
 */
const BIG = '9007199254740993';
const HUGE = '123456789012345678901234567890123456789';

describe('big int literals of a deployed contract are exact on the devnet', function () {
  this.timeout(120_000);
  let net: Awaited<ReturnType<typeof openDevnet>>;
  let a: DevAccount;
  let nonce = 0;

  before(async () => {
    net = await openDevnet();
    a = net.devnet.accounts()[0] as DevAccount;
    const code = `v = Variable()
h = Hash()

@export
def big():
    v.set(${BIG})
    h['neg'] = -${BIG}
    h['huge'] = ${HUGE}
    return ${BIG}

@export
def peek():
    return ${BIG} + 0
`;
    const r = await send('submission', 'submit_contract', { name: 'con_bigint', code });
    assert.equal(r.status, 0, r.result);
  });
  after(async () => net.close());

  async function send(contract: string, fn: string, kwargs: Record<string, unknown>): Promise<any> {
    const tx = signedTx({ privateKey: a.privateKey, sender: a.address, nonce: nonce++, contract, function: fn, kwargs: kwargs as never, chi: 100_000 });
    const r = await net.devnet.rpc.call<any>('broadcast_tx_commit', { tx: txParam(tx.hex) });
    return { ...decodeData(r.tx_result.data), text: Buffer.from(r.tx_result.data, 'base64').toString('utf8') };
  }

  it('through the call result and the stored state', async () => {
    const out = await send('con_bigint', 'big', {});
    assert.equal(out.status, 0, out.result);
    assert.equal(out.result, BIG);
    // The output text itself (JSON.parse in the test would round it).
    assert.ok(out.text.includes(`{"key":"con_bigint.v","value":${BIG}}`), out.text);
    assert.equal(valueText(await abciQuery(net.devnet, '/get/con_bigint.v')), BIG);
    assert.equal(valueText(await abciQuery(net.devnet, '/get/con_bigint.h:neg')), `-${BIG}`);
    assert.equal(valueText(await abciQuery(net.devnet, '/get/con_bigint.h:huge')), HUGE);
  });

  it('through a dry run', async () => {
    const payload = Buffer.from(JSON.stringify({ sender: a.address, contract: 'con_bigint', function: 'peek', kwargs: {} })).toString('hex');
    const out = JSON.parse(valueText(await abciQuery(net.devnet, `/simulate_tx/${payload}`))!);
    assert.equal(out.status, 0, out.result);
    assert.equal(out.result, BIG);
  });
});
