import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { canonicalPayload, executionHash, type SignedTransaction } from '../../../../core/chain/transaction.js';
import { sign } from '../../../../core/chain/keys.js';
import type { DevAccount } from '../../../../plugins/devnet/node/devnet.js';
import { abciQuery, decodeData, openDevnet, signedTx, txParam, valueText } from './devnet-fixture.js';
import { wireForms } from '../../../conformance/wire-forms.js';

type Opened = Awaited<ReturnType<typeof openDevnet>>;

/** Wire text with a hand-made JSON body (for non-canonical encodings), signed over the canonical payload. */
function rawTx(account: DevAccount, payloadJson: string, payloadForSignature: SignedTransaction['payload'], wire?: (sig: string) => string): string {
  const sig = sign(account.privateKey, canonicalPayload(payloadForSignature));
  const json = wire ? wire(sig) : `{"metadata":{"signature":"${sig}"},"payload":${payloadJson}}`;
  return Buffer.from(json, 'utf8').toString('hex');
}

describe('devnet transactions (transactions.md §6-8)', function () {
  let net: Opened;
  let a: DevAccount;
  let b: DevAccount;

  beforeEach(async () => {
    net = await openDevnet();
    [a, b] = net.devnet.accounts() as [DevAccount, DevAccount];
  });
  afterEach(async () => net.close());

  const broadcast = (hex: string, method = 'broadcast_tx_sync') => net.devnet.rpc.call<any>(method, { tx: txParam(hex) });

  describe('a transaction signed by the core is accepted and mined', () => {
    it('broadcast_tx_commit returns CheckTx and the execution result with CometBFT shapes', async () => {
      const tx = signedTx({ privateKey: a.privateKey, sender: a.address, nonce: 0, kwargs: { amount: { __fixed__: '5' }, to: b.address } });
      const r = await broadcast(tx.hex, 'broadcast_tx_commit');
      assert.equal(r.hash, tx.hash);
      assert.deepEqual(r.check_tx, { code: 0, data: null, log: '', info: '', gas_wanted: '0', gas_used: '0', events: [], codespace: '' });
      assert.equal(r.tx_result.code, 0);
      assert.equal(r.tx_result.gas_used, '0');
      assert.match(r.height, /^[0-9]+$/);
      const out = decodeData(r.tx_result.data);
      assert.deepEqual(Object.keys(out), ['chi_used', 'events', 'hash', 'result', 'reward_records', 'rewards', 'state', 'status']);
      assert.equal(out.status, 0);
      assert.equal(out.result, 'None');
      assert.ok(out.chi_used > 5);
      assert.equal(out.events[0].event, 'Transfer');
      assert.deepEqual(out.events[0].data, { amount: '5' });
      const keys = out.state.map((s: { key: string }) => s.key);
      assert.deepEqual(keys, [...keys].sort());
      assert.ok(keys.includes(`currency.balances:${b.address}`));
      assert.ok(!keys.some((k: string) => k.startsWith('__n.')), 'the nonce write is not part of the output state');

      const types = r.tx_result.events.map((e: { type: string }) => e.type);
      assert.deepEqual(types, ['StateChange', 'Transfer']);
      const stateChange = r.tx_result.events[0].attributes;
      assert.ok(stateChange.some((x: any) => x.key === `currency_balances__${b.address}` && x.value === '1000005' && x.index === false));
      const transfer = Object.fromEntries(r.tx_result.events[1].attributes.map((x: any) => [x.key, [x.value, x.index]]));
      assert.deepEqual(transfer['to'], [b.address, true]);
      assert.deepEqual(transfer['amount'], ['5', false]);
      assert.deepEqual(transfer['contract'], ['currency', true]);

      const balance = await abciQuery(net.devnet, `/get/currency.balances:${b.address}`);
      assert.equal(balance.info, 'decimal');
      assert.equal(valueText(balance), '1000005');
    });

    it('hashes follow the reference: CometBFT hash of the hex text, execution hash with b_meta', async () => {
      const tx = signedTx({ privateKey: a.privateKey, sender: a.address, nonce: 0, kwargs: { amount: 1, to: b.address } });
      assert.equal(tx.hash, createHash('sha256').update(tx.hex, 'utf8').digest('hex').toUpperCase());
      const r = await broadcast(tx.hex, 'broadcast_tx_commit');
      assert.equal(r.hash, tx.hash);
      const found = await net.devnet.rpc.call<any>('tx', { hash: Buffer.from(tx.hash, 'hex').toString('base64') });
      assert.equal(found.hash, tx.hash);
      assert.equal(found.height, r.height);
      assert.equal(found.index, 0);
      assert.equal(Buffer.from(found.tx, 'base64').toString('utf8'), tx.hex);
      const block = await net.devnet.rpc.call<any>('block', { height: r.height });
      const header = block.block.header;
      const nanos = BigInt(Date.parse(header.time.replace(/\.\d+Z$/, 'Z'))) * 1_000_000n + BigInt((/\.(\d+)Z$/.exec(header.time)?.[1] ?? '').padEnd(9, '0'));
      const expected = executionHash(tx.tx, { chain_id: 'chain-local-1', hash: block.block_id.hash.toLowerCase(), height: Number(r.height), nanos });
      assert.equal(decodeData(found.tx_result.data).hash, expected);
      assert.equal(block.block.data.txs[0], Buffer.from(tx.hex).toString('base64'));
    });

    it('instant mining batches what arrives together into one block', async () => {
      const txs = [0, 1, 2, 3].map((nonce) => signedTx({ privateKey: a.privateKey, sender: a.address, nonce, kwargs: { amount: 1, to: b.address } }));
      const results = await Promise.all(txs.map((t) => broadcast(t.hex, 'broadcast_tx_commit')));
      assert.ok(results.every((r) => r.tx_result.code === 0));
      assert.equal(new Set(results.map((r) => r.height)).size, 1, 'one block for the four');
      const next = await abciQuery(net.devnet, `/get_next_nonce/${a.address}`);
      assert.equal(valueText(next), '4');
    });
  });

  describe('CheckTx admits any well-formed JSON signed over the canonical payload, as the native validator does', () => {
    const base = (account: DevAccount, extra: Partial<SignedTransaction['payload']> = {}) => ({
      chain_id: 'chain-local-1', chi_supplied: 1000, contract: 'currency', function: 'transfer',
      kwargs: { amount: 1, to: 'b'.repeat(64) }, nonce: 0, sender: account.address, ...extra,
    }) as SignedTransaction['payload'];

    const expectRefused = async (hex: string, message: string) => {
      const r = await broadcast(hex);
      assert.equal(r.code, 1, JSON.stringify(r));
      assert.equal(r.log, `TransactionException: ${message}`);
      assert.equal(r.data, '');
      assert.equal(r.hash, createHash('sha256').update(hex).digest('hex').toUpperCase());
      return r;
    };

    const expectAdmitted = async (hex: string) => {
      const r = await net.devnet.rpc.call<any>('broadcast_tx_commit', { tx: txParam(hex) });
      assert.equal(r.check_tx.code, 0, JSON.stringify(r.check_tx));
      assert.equal(r.tx_result.code, 0, JSON.stringify(r.tx_result));
      // The hash is of the bytes as broadcast, not of a canonical re-encoding.
      assert.equal(r.hash, createHash('sha256').update(hex).digest('hex').toUpperCase());
      const found = await net.devnet.rpc.call<any>('tx', { hash: Buffer.from(r.hash, 'hex').toString('base64') });
      assert.equal(Buffer.from(found.tx, 'base64').toString('utf8'), hex, 'the block keeps the bytes as sent');
      return r;
    };

    it('object keys in JS default (UTF-16) order instead of code-point order', async () => {
      const kwargs = { data: { 'é': 1, '\uE000': 2, '😀': 3 } };
      const payload = base(a, { contract: 'con_probe', function: 'run', kwargs: kwargs as any });
      const inner = Object.keys(kwargs.data).sort().map((k) => `${JSON.stringify(k)}:${(kwargs.data as any)[k]}`).join(',');
      const json = `{"chain_id":"chain-local-1","chi_supplied":1000,"contract":"con_probe","function":"run","kwargs":{"data":{${inner}}},"nonce":0,"sender":"${a.address}"}`;
      assert.ok(json.indexOf('😀') < json.indexOf('\uE000'), 'the default sort puts the astral key first');
      const r = await net.devnet.rpc.call<any>('broadcast_tx_sync', { tx: txParam(rawTx(a, json, payload)) });
      assert.equal(r.code, 0, r.log);
    });

    it('whitespace between tokens (Python json.dumps separators)', async () => {
      const payload = base(a);
      await expectAdmitted(rawTx(a, '', payload, (sig) => `{"metadata": {"signature": "${sig}"}, "payload": ${canonicalPayload(payload).replace(/,"/g, ', "').replace(/":/g, '": ')}}`));
    });

    it('a float in kwargs is a wrongly formatted dictionary', async () => {
      const payload = base(a);
      const json = canonicalPayload(payload).replace('"amount":1', '"amount":1.5');
      await expectRefused(rawTx(a, json, payload), 'Transaction has wrongly formatted dictionary');
    });

    it('the wrong chain id', async () => {
      const tx = signedTx({ privateKey: a.privateKey, sender: a.address, nonce: 0, chainId: 'other-chain-1' });
      await expectRefused(tx.hex, 'Wrong chain_id');
    });

    it('a bad signature', async () => {
      const tx = signedTx({ privateKey: a.privateKey, sender: a.address, nonce: 0 });
      const json = Buffer.from(tx.hex, 'hex').toString('utf8');
      const sig = tx.tx.metadata.signature;
      const forged = json.replace(sig, (sig[0] === '0' ? '1' : '0') + sig.slice(1));
      await expectRefused(Buffer.from(forged).toString('hex'), 'Bad signature');
    });

    it('a stale nonce, and a gap', async () => {
      await broadcast(signedTx({ privateKey: a.privateKey, sender: a.address, nonce: 0 }).hex, 'broadcast_tx_commit');
      await expectRefused(signedTx({ privateKey: a.privateKey, sender: a.address, nonce: 0, chi: 999 }).hex, 'Transaction nonce is invalid. Expected 1, got 0');
      await expectRefused(signedTx({ privateKey: a.privateKey, sender: a.address, nonce: 5 }).hex, 'Transaction nonce is invalid. Expected 1, got 5');
    });

    it('chi beyond the balance rule', async () => {
      const poor = signedTx({ privateKey: a.privateKey, sender: a.address, nonce: 0, chi: 30_000_000 });
      await expectRefused(poor.hex, 'Transaction sender has too few chi for this transaction');
      const drain = signedTx({ privateKey: a.privateKey, sender: a.address, nonce: 0, kwargs: { amount: { __fixed__: '999999.9' }, to: b.address } });
      await expectRefused(drain.hex, 'Transaction sender has too few chi for this transaction');
    });

    it('a resubmitted transaction is "already in cache", as CometBFT answers', async () => {
      const tx = signedTx({ privateKey: a.privateKey, sender: a.address, nonce: 0 });
      await broadcast(tx.hex, 'broadcast_tx_commit');
      await assert.rejects(broadcast(tx.hex), (err: any) => err.code === -32603 && err.data === 'tx already exists in cache');
    });

    it('refused transactions never reach a block', async () => {
      const before = (await net.devnet.rpc.call<any>('status')).sync_info.latest_block_height;
      await expectRefused(signedTx({ privateKey: a.privateKey, sender: a.address, nonce: 0, chainId: 'x-1' }).hex, 'Wrong chain_id');
      await new Promise((r) => setTimeout(r, 30));
      assert.equal((await net.devnet.rpc.call<any>('status')).sync_info.latest_block_height, before);
      assert.equal((await net.devnet.rpc.call<any>('num_unconfirmed_txs')).total, '0');
    });
  });

  describe('the wire forms real SDKs broadcast (test/conformance/fixtures/wire-forms.json, made with Python)', () => {
    it('canonical, xian-py json.dumps and reordered keys execute; the xian-py refusals carry the production messages', async () => {
      assert.equal(a.address, wireForms.sender, 'the fixture signs as dev account 0');
      for (const form of wireForms.forms) {
        assert.equal(Buffer.from(form.wire_json, 'utf8').toString('hex'), form.raw_hex);
        const r = await broadcast(form.raw_hex, form.expect.code === 0 ? 'broadcast_tx_commit' : 'broadcast_tx_sync');
        const check = form.expect.code === 0 ? r.check_tx : r;
        assert.equal(check.code, form.expect.code, `${form.name}: ${check.log}`);
        if (form.expect.log !== undefined) assert.equal(check.log, form.expect.log, form.name);
        assert.equal(r.hash, form.hash, `${form.name}: the hash is SHA-256 of the bytes as broadcast`);
        if (form.expect.code === 0) assert.equal(r.tx_result.code, 0, `${form.name} executed: ${Buffer.from(r.tx_result.data ?? '', 'base64')}`);
      }
      const to = await abciQuery(net.devnet, '/get/currency.balances:bob-ü→😀');
      assert.equal(valueText(to), '4.5', 'three transfers of 1.5 landed');
    });
  });

  describe('limits and fee modes from config/chain.toml', () => {
    it('max_tx_bytes and free_metered caps', async () => {
      const other = await openDevnet({ config: { max_tx_bytes: 400, tx_fee_mode: 'free_metered', free_tx_max_chi: 500 } });
      try {
        const [x, y] = other.devnet.accounts() as [DevAccount, DevAccount];
        const big = signedTx({ privateKey: x.privateKey, sender: x.address, nonce: 0, kwargs: { amount: 1, to: y.address } });
        const tooBig = await other.devnet.rpc.call<any>('broadcast_tx_sync', { tx: txParam(big.hex) });
        assert.equal(tooBig.log, 'TransactionException: Transaction exceeds maximum configured size of 400 bytes');
      } finally {
        await other.close();
      }
      const free = await openDevnet({ config: { tx_fee_mode: 'free_metered', free_tx_max_chi: 500 } });
      try {
        const [x, y] = free.devnet.accounts() as [DevAccount, DevAccount];
        const greedy = signedTx({ privateKey: x.privateKey, sender: x.address, nonce: 0, chi: 501, kwargs: { amount: 1, to: y.address } });
        assert.equal((await free.devnet.rpc.call<any>('broadcast_tx_sync', { tx: txParam(greedy.hex) })).log, 'TransactionException: Transaction chi_supplied exceeds maximum configured limit of 500');
        const ok = signedTx({ privateKey: x.privateKey, sender: x.address, nonce: 0, chi: 500, kwargs: { amount: 1, to: y.address } });
        const r = await free.devnet.rpc.call<any>('broadcast_tx_commit', { tx: txParam(ok.hex) });
        const out = decodeData(r.tx_result.data);
        assert.equal(out.status, 0);
        assert.ok(out.chi_used > 0, 'chi is still metered');
        assert.equal(out.rewards, null, 'no fee, no rewards');
        assert.equal(valueText(await abciQuery(free.devnet, `/get/currency.balances:${x.address}`)), '999999');
      } finally {
        await free.close();
      }
    });
  });

  describe('nonces (§8)', () => {
    it('get_next_nonce is pending-aware and 0 (MA==) for unknown accounts', async () => {
      const unknown = await abciQuery(net.devnet, `/get_next_nonce/${'c'.repeat(64)}`);
      assert.equal(unknown.value, 'MA==');
      assert.equal(unknown.info, 'int');
      net.devnet.node.producer.stop(); // keep transactions pending
      await broadcast(signedTx({ privateKey: a.privateKey, sender: a.address, nonce: 0 }).hex);
      await broadcast(signedTx({ privateKey: a.privateKey, sender: a.address, nonce: 1 }).hex);
      assert.equal(valueText(await abciQuery(net.devnet, `/get_next_nonce/${a.address}`)), '2');
      const pool = await net.devnet.rpc.call<any>('unconfirmed_txs', { limit: '1' });
      assert.equal(pool.n_txs, '1');
      assert.equal(pool.total, '2');
      const block = await net.devnet.mine();
      assert.equal(block.txs.length, 2);
      assert.equal(valueText(await abciQuery(net.devnet, `/get/__n.${a.address}:`)), '1');
    });

    it('the identical transaction re-checked is accepted idempotently by check_tx', async () => {
      const tx = signedTx({ privateKey: a.privateKey, sender: a.address, nonce: 0 });
      const first = await net.devnet.rpc.call<any>('check_tx', { tx: txParam(tx.hex) });
      assert.equal(first.code, 0);
      assert.equal((await net.devnet.rpc.call<any>('num_unconfirmed_txs')).total, '0', 'check_tx pools nothing');
    });
  });
});
