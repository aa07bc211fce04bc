import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { ChainNode } from '../../../core/chain/node.js';
import { HttpChainRpc } from '../../../core/chain/rpc/http-chain-rpc.js';
import { encodeTransaction, signTransaction } from '../../../core/chain/transaction.js';
import { DEFAULT_MNEMONIC, deriveAccounts } from '../../../plugins/devnet/node/devnet.js';
import { assertIsolated, assertLinear, fullStack, hostCpuDuring, repeatFor, report, REQUEST_BUDGET_MS, type FullStack } from './support/complexity-harness.js';

/**
 * The dashboard's /ws (issue #19 item 2): clients fill their subscriptions (64 each) with the
 * worst glob a 512-character cap allows — `*?*?…!` — and every block's state keys are matched
 * against all of them. The cost shows as the delay until a later client (subscribed to `*`)
 * gets the block's state_change: it must grow linearly with the pattern and stay in budget, and
 * node /status must answer as promptly as while the same blocks flow without those subscriptions.
 * The patterns end in a literal, the worst case for the RegExp this replaced (the matcher's own
 * worst case, middle pieces that almost fit everywhere, is covered by test/plugins/dashboard/ws).
 */
const CLIENTS = 4;
const SUBSCRIPTIONS = 64;
const [SENDER, RECIPIENT] = deriveAccounts(DEFAULT_MNEMONIC, 2);

interface Client {
  socket: WebSocket;
  request(message: object): Promise<any>;
  nextState(): Promise<void>;
}

async function connect(url: string): Promise<Client> {
  const socket = new WebSocket(url.replace(/^http/, 'ws') + '/ws');
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const replies: Array<(m: any) => void> = [];
  const states: Array<() => void> = [];
  socket.on('message', (data) => {
    const m = JSON.parse(String(data));
    if (m.type === 'state_change') states.shift()?.();
    else if (m.status) replies.shift()?.(m);
  });
  return {
    socket,
    request: (message) => new Promise((resolve) => {
      replies.push(resolve);
      socket.send(JSON.stringify(message));
    }),
    nextState: () => new Promise<void>((resolve) => states.push(resolve)),
  };
}

function worstPattern(pairs: number, variant: number): string {
  return '*?'.repeat(pairs) + '!' + String.fromCharCode(65 + (variant % 26)) + String(variant);
}

describe('complexity fuzzer: dashboard WebSocket globs', function () {
  this.timeout(600_000);
  let stack: FullStack;
  let node: ChainNode;
  let nonce = 0;
  const clients: Client[] = [];
  let sentinel: Client;

  before(async function () {
    this.timeout(240_000);
    stack = await fullStack();
    node = new ChainNode(new HttpChainRpc(stack.rpcUrl, { retries: 0, timeoutMs: 60_000 }));
    nonce = Number((await node.query(`/get_next_nonce/${SENDER!.address}`)).value?.text ?? '0');
    for (let i = 0; i < CLIENTS; i++) clients.push(await connect(stack.dashboardUrl));
    sentinel = await connect(stack.dashboardUrl);
    await sentinel.request({ action: 'subscribe', type: 'state', key: 'currency.balances:*' });
  });
  after(async () => {
    for (const c of [...clients, sentinel]) c?.socket.close();
    await node?.rpc.close?.();
  });

  /** Commits one transfer and resolves when the sentinel has its state_change: the block's matching cost plus a round trip. */
  async function oneBlock(): Promise<void> {
    const signed = signTransaction({
      chain_id: 'chain-local-1', chi_supplied: 1000, contract: 'currency', function: 'transfer',
      kwargs: { amount: 1, to: RECIPIENT!.address }, nonce: nonce++, sender: SENDER!.address,
    }, SENDER!.privateKey);
    const delivered = sentinel.nextState();
    const result = await node.broadcastTxCommit(encodeTransaction(signed).hex);
    assert.equal(result.check_tx.code, 0, result.check_tx.log);
    // A lost delivery is a hang, not slowness: the bound only has to end the test.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([delivered, new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error('state_change not delivered within 120 s')), 120_000);
    })]).finally(() => clearTimeout(timer));
  }

  it('64 subscriptions × 4 clients of *?*?…! patterns growing to the 512-character cap', async () => {
    const points: Array<{ size: number; ms: number }> = [];
    for (const pairs of [2, 4, 8, 32, 128, 250]) {
      for (const c of clients) {
        await c.request({ action: 'unsubscribe_all' });
        for (let s = 0; s < SUBSCRIPTIONS; s++) {
          const reply = await c.request({ action: 'subscribe', type: 'state', key: worstPattern(pairs, s).slice(0, 512) });
          assert.equal(reply.status, 'ok', JSON.stringify(reply));
        }
      }
      let best = Infinity;
      for (let run = 0; run < 3; run++) {
        const { cpuMs: ms } = await hostCpuDuring(stack, oneBlock);
        assert.ok(ms <= REQUEST_BUDGET_MS, `${pairs} pairs: a block cost the host ${ms.toFixed(0)} ms of CPU until it reached the last client (budget ${REQUEST_BUDGET_MS} ms)`);
        best = Math.min(best, ms);
      }
      points.push({ size: pairs, ms: best });
    }
    assertLinear(points);
    const blocks = () => repeatFor(1_500, oneBlock);
    // The baseline is the same stream of blocks without the worst subscriptions: committing,
    // indexing and broadcasting a block is the node's own work, not the glob matcher's.
    const isolation = await assertIsolated(stack, blocks, async () => {
      for (const c of clients) await c.request({ action: 'unsubscribe_all' });
      await blocks();
      for (const c of clients) {
        for (let s = 0; s < SUBSCRIPTIONS; s++) await c.request({ action: 'subscribe', type: 'state', key: worstPattern(250, s) });
      }
    });
    report('dashboard ws globs', { points, ...isolation });
  });
});
