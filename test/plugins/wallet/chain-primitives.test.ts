import assert from 'node:assert/strict';
import { z } from 'zod';
import { ChainIdGuard } from '../../../core/chain/chain-id-guard.js';
import type { DecodedAbciQuery } from '../../../core/chain/abci-value.js';
import { Wallet } from '../../../core/chain/keys.js';
import type { ChainNode } from '../../../core/chain/node.js';
import { ChainSimulator } from '../../../core/chain/chain-simulator.js';
import { chiWithMargin, TransactionSubmitter } from '../../../core/chain/transaction-submitter.js';
import { ApiError } from '../../../core/errors.js';
import { addressSchema, decimalSchema, kwargsSchema, plainDecimalText, privateKeySchema, toolJson } from '../../../core/tools/chain-schemas.js';
import fc from 'fast-check';
import { ChainDecimal } from '../../../core/chain/decimal.js';

/** The shared chain primitives for submitting tools, with a scripted node. */

function answer(info: string, text: string | null): DecodedAbciQuery {
  return { code: 0, log: '', info, key: '', height: '1', codespace: '', value: text === null ? null : { text, json: info === 'dict' ? JSON.parse(text) : undefined } };
}

const OK_SIMULATION = answer('dict', JSON.stringify({ chi_used: 100, payload: {}, result: 'None', state: [], status: 0 }));

interface FakeNode {
  node: ChainNode;
  broadcasts: Array<{ nonce: number }>;
  nodeNext: number;
  refuseNext: string[];
  statusCalls: number;
  network: string;
}

/** A node whose next-nonce answer, CheckTx refusals and network are scripted; every send is accepted otherwise. */
function fakeNode(): FakeNode {
  const fake: FakeNode = { broadcasts: [], nodeNext: 0, refuseNext: [], statusCalls: 0, network: 'chain-local-1', node: undefined as unknown as ChainNode };
  fake.node = {
    status: async () => {
      fake.statusCalls++;
      return { node_info: { network: fake.network } };
    },
    query: async (path: string) => {
      if (path.startsWith('/simulate_tx/')) return OK_SIMULATION;
      if (path.startsWith('/get_next_nonce/')) return answer('int', String(fake.nodeNext));
      if (path.startsWith('/contract_methods/')) return answer('', null);
      throw new Error(`unexpected query ${path}`);
    },
    broadcastTxSync: async (hex: string) => {
      const tx = JSON.parse(Buffer.from(hex, 'hex').toString('utf8'));
      const refusal = fake.refuseNext.shift();
      if (refusal) return { code: 1, log: refusal, codespace: '', hash: 'H', data: '' };
      fake.broadcasts.push({ nonce: tx.payload.nonce });
      return { code: 0, log: '', codespace: '', hash: 'H', data: '' };
    },
    subscribeTxs: async () => ({ unsubscribe: async () => undefined }),
    tx: async () => {
      throw new Error('not found');
    },
  } as unknown as ChainNode;
  return fake;
}

describe('chain primitives for submitting tools', () => {
  describe('chiWithMargin: max(ceil(estimate × margin), estimate + floor)', () => {
    const cases: Array<[bigint, string, number, bigint]> = [
      [0n, '1.1', 10, 10n],
      [39n, '1.1', 10, 49n],
      [100n, '1.1', 10, 110n],
      [1000n, '1.1', 10, 1100n],
      [1001n, '1.1', 10, 1102n],
      [1001n, '1', 0, 1001n],
      [7n, '1.25', 0, 9n],
      [0n, '1', 0, 1n],
    ];
    for (const [estimate, margin, floor, expected] of cases) {
      it(`estimate ${estimate}, margin ${margin}, floor ${floor} → ${expected}`, () => {
        assert.equal(chiWithMargin(estimate, margin, floor), expected);
      });
    }
    it('refuses a margin below 1 and a negative floor', () => {
      assert.throws(() => chiWithMargin(1n, '0.9', 10), /at least 1/);
      assert.throws(() => chiWithMargin(1n, '1.1', -1), /non-negative/);
    });
  });

  describe('shared schemas', () => {
    const amount = decimalSchema();
    it('decimals accept strings and numbers and convert exactly', () => {
      assert.equal(amount.parse('12.50').toString(), '12.5');
      assert.equal(amount.parse(0.1).toString(), '0.1');
      assert.equal(amount.parse(1e-7).toString(), '0.0000001');
      assert.equal(amount.parse('1E+3').toString(), '1000');
      assert.equal(amount.parse(' 3 ').toString(), '3');
      for (const bad of ['0', '-1', 'NaN', '', '1.2.3', '0x10', '1e-31', 1e61]) assert.equal(amount.safeParse(bad).success, false, String(bad));
      assert.equal(decimalSchema({ sign: 'nonNegative' }).safeParse('0').success, true);
      assert.equal(decimalSchema({ maxPlaces: 8 }).safeParse('0.000000001').success, false);
    });

    it('a private key error never contains the key', () => {
      const key = 'q' + 'a'.repeat(63);
      const r = privateKeySchema.safeParse(key);
      assert.equal(r.success, false);
      assert.ok(!JSON.stringify(r.error).includes(key));
      assert.equal(privateKeySchema.parse('0X' + 'AB'.repeat(32)), 'ab'.repeat(32));
    });

    it('an address is 64 hex (optional 0x), lowercased', () => {
      assert.equal(addressSchema.parse('0x' + 'AB'.repeat(32)), 'ab'.repeat(32));
      assert.equal(addressSchema.safeParse('ab'.repeat(31)).success, false);
    });

    it('kwargs accept an object or JSON text, go through the value codec and default to {}', () => {
      const schema = z.object({ kwargs: kwargsSchema });
      assert.deepEqual({ ...schema.parse({}).kwargs }, {});
      assert.deepEqual(JSON.parse(JSON.stringify(schema.parse({ kwargs: { amount: 1.5, n: 3 } }).kwargs)), { amount: { __fixed__: '1.5' }, n: 3 });
      assert.deepEqual(JSON.parse(JSON.stringify(schema.parse({ kwargs: '{"big": 123456789012345678901234567890}' }).kwargs)), { big: { __big_int__: '123456789012345678901234567890' } });
      assert.equal(schema.safeParse({ kwargs: { amount: 2 ** 60 } }).success, false);
    });

    it('plainDecimalText agrees with ChainDecimal on every form the chain writes', () => {
      for (const [text, plain] of [['1E+6', '1000000'], ['1.01E+3', '1010'], ['100E-9', '0.0000001'], ['999993.05', '999993.05'], ['-0', '0'], ['0.10', '0.1'], ['007', '7'], ['.5', '0.5']]) {
        assert.equal(plainDecimalText(text!), plain, text);
      }
      assert.equal(plainDecimalText('abc'), null);
      assert.equal(plainDecimalText('1e61'), null);
      fc.assert(
        fc.property(fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }), fc.integer({ min: -45, max: 25 }), (mantissa, exp) => {
          const text = `${mantissa}E${exp >= 0 ? '+' : ''}${exp}`;
          let expected: string | null;
          try {
            expected = ChainDecimal.parse(text).toString();
          } catch {
            expected = null; // out of range
          }
          assert.equal(plainDecimalText(text), expected, text);
        }),
        { numRuns: 2000 },
      );
    });

    it('toolJson turns big ints into strings, decimals into plain strings and never emits floats', () => {
      assert.deepEqual(toolJson({ a: 2n ** 70n, b: 5n, c: ChainDecimal.parse('1E+3'), d: [0.5] }), { a: '1180591620717411303424', b: 5, c: '1000', d: ['0.5'] });
    });
  });

  describe('ChainIdGuard', () => {
    it('reads the network once; a mismatch is a warning for reads and a 409 for submits, after one refresh', async () => {
      const fake = fakeNode();
      fake.network = 'chain-other-2';
      const guard = new ChainIdGuard(fake.node, 'chain-local-1');
      assert.match((await guard.warnings())[0]!, /CHAIN_ID is "chain-local-1" but the node's network .* is "chain-other-2"/);
      assert.match((await guard.warnings())[0]!, /chain-other-2/);
      assert.equal(fake.statusCalls, 1, 'cached');
      await assert.rejects(guard.assertMatches(), (err: ApiError) => err.status === 409 && err.code === 'chain_id_mismatch');
      assert.equal(fake.statusCalls, 2, 'a submit refreshes once before refusing');
      fake.network = 'chain-local-1'; // the node was pointed at the right network
      await guard.assertMatches();
      assert.deepEqual(await guard.warnings(), []);
      assert.equal(fake.statusCalls, 3);
    });
  });

  describe('TransactionSubmitter nonce lane', () => {
    const key = Wallet.generate().exportPrivateKey();
    const send = (s: TransactionSubmitter) => s.submit({ key, contract: 'currency', function: 'transfer', kwargs: {}, wait: false });

    it('uses the larger of the node\'s next nonce and the local reservation', async () => {
      const fake = fakeNode();
      const s = new TransactionSubmitter(fake.node, { chainId: 'chain-local-1' });
      await Promise.all([send(s), send(s), send(s)]);
      assert.deepEqual(fake.broadcasts.map((b) => b.nonce), [0, 1, 2], 'the node lagged at 0; the reservation counted');
      fake.nodeNext = 10; // another client used the key
      await send(s);
      assert.equal(fake.broadcasts.at(-1)!.nonce, 10);
    });

    it('retries a nonce refusal once with a fresh nonce, and drops the reservation on other refusals', async () => {
      const fake = fakeNode();
      const s = new TransactionSubmitter(fake.node, { chainId: 'chain-local-1' });
      await send(s);
      fake.nodeNext = 5;
      fake.refuseNext.push('TransactionException: Transaction nonce is invalid. Expected 5, got 1');
      await send(s);
      assert.deepEqual(fake.broadcasts.map((b) => b.nonce), [0, 5]);
      fake.nodeNext = 6;
      fake.refuseNext.push('TransactionException: Transaction sender has too few chi for this transaction');
      await assert.rejects(send(s), (err: ApiError) => err.code === 'transaction_rejected' && err.status === 400 && /too few chi/.test(err.message));
      fake.nodeNext = 3; // e.g. the node forgot pending reservations; ours was dropped with the refusal
      await send(s);
      assert.equal(fake.broadcasts.at(-1)!.nonce, 3);
    });

    it('supplies the chi margin over the dry-run estimate', async () => {
      const fake = fakeNode();
      const s = new TransactionSubmitter(fake.node, { chainId: 'chain-local-1', chiMargin: '1.5', chiFloor: 0 });
      const r = await send(s);
      assert.deepEqual([r.chi_estimated, r.chi_supplied], [100, 150]);
    });
  });

  describe('ChainSimulator caps', () => {
    it('runs at most maxConcurrency dry runs at once and refuses past the queue with 503', async () => {
      let active = 0;
      let peak = 0;
      const node = {
        query: async () => {
          active++;
          peak = Math.max(peak, active);
          await new Promise((r) => setTimeout(r, 20));
          active--;
          return OK_SIMULATION;
        },
      } as unknown as ChainNode;
      const sim = new ChainSimulator(node, { maxConcurrency: 2, maxQueue: 3 });
      const request = { sender: 'a', contract: 'c', function: 'f', kwargs: {} };
      const outcomes = await Promise.allSettled(Array.from({ length: 7 }, () => sim.simulate(request)));
      assert.equal(peak, 2);
      assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 5);
      const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
      assert.equal((refused.reason as ApiError).status, 503);
    });

    it('retries a node capacity refusal, then answers', async () => {
      let calls = 0;
      const node = {
        query: async () => (++calls < 3 ? answer('dict', JSON.stringify({ chi_used: 0, payload: null, result: 'Simulation capacity exceeded on this node; retry later', state: [], status: 1 })) : OK_SIMULATION),
      } as unknown as ChainNode;
      const r = await new ChainSimulator(node).simulate({ sender: 'a', contract: 'c', function: 'f', kwargs: {} });
      assert.deepEqual([r.status, calls], [0, 3]);
    });

    it('times out a dry run that takes too long (504)', async () => {
      const node = { query: (_p: string, o: { signal: AbortSignal }) => new Promise((_r, reject) => o.signal.addEventListener('abort', () => reject(o.signal.reason))) } as unknown as ChainNode;
      await assert.rejects(new ChainSimulator(node, { timeoutMs: 30 }).simulate('00'), (err: ApiError) => err.status === 504);
    });
  });
});
