import assert from 'node:assert/strict';
import { Wallet } from '../../../core/chain/keys.js';
import { Keystore } from '../../../core/keystore/keystore.js';
import { connectMcp, MODERN, type ElicitAnswer, type Era } from '../../support/mcp-clients.js';
import { TEST_TOKEN } from '../../support/test-host.js';
import { devAccount, devnetConfig, startHost, tempHome, type RunningHost } from '../../plugins/wallet/chain-tool-kit.js';

/**
 * A send that needs a person's yes (plugins.wallet.confirm) over MCP HTTP, on both protocols
 * (issue #38): a 2026-07-28 client gets an `input_required` result and retries with the answer
 * (the v2 SDK client does it by itself), a 2025-11-25 client gets `elicitation/create` on the
 * call's stream. The answer is bound to the exact transaction: replayed, altered or tampered
 * answers are refused and nothing is sent (the nonce does not move).
 */
const PASS = 'correct horse battery staple';
const SPENDER = devAccount(7);
const FRIEND = devAccount(8).address;
const AUTH = { authorization: `Bearer ${TEST_TOKEN}` };
const sendArgs = (amount: string) => ({ account: 'spender', to_address: FRIEND, amount });

describe('MCP confirmations on 2026-07-28 (input_required) and 2025-11-25 (elicitation/create)', function () {
  this.timeout(180_000);
  let home: Awaited<ReturnType<typeof tempHome>>;
  let running: RunningHost;

  before(async () => {
    process.env.CHAIN_KEYSTORE_PASSPHRASE = PASS;
    home = await tempHome();
    await new Keystore(home.dir, { scrypt: { n: 2 ** 10, r: 8, p: 1 } }).add('spender', Wallet.fromPrivateKey(SPENDER.privateKey), PASS);
    running = await startHost(devnetConfig(home.dir, {
      plugins: { wallet: { confirm: { ask: { above: { currency: '50' } }, fallback: 'refuse', timeoutSeconds: 60 } }, query: {} },
    }), { unsafe: true });
    // A send under the threshold (nobody asked) warms the VM and the dry-run path first: on a busy
    // machine the very first dry run of a fresh devnet can outlast its 10 s timeout.
    for (let attempt = 0; attempt < 3; attempt++) {
      if ((await running.call('send_tokens', sendArgs('1'))).ok) break;
    }
  });

  after(async () => {
    delete process.env.CHAIN_KEYSTORE_PASSPHRASE;
    await running?.stop();
    await home?.remove();
  });

  async function nonce(): Promise<number> {
    const outcome = await running.call('get_next_nonce', { address: SPENDER.address });
    assert.equal(outcome.ok, true, outcome.text);
    return Number(outcome.result.nonce);
  }

  for (const era of ['v2@2026-07-28', 'v1@2025-11-25'] as Era[]) {
    it(`${era}: the person is asked once with the summary; accept sends, decline sends nothing`, async () => {
      const asked: string[] = [];
      let answer: ElicitAnswer = { action: 'accept', content: {} };
      const client = await connectMcp(era, { http: running.host.url('/mcp') }, { headers: AUTH, elicit: async ({ message }) => (asked.push(message), answer) });
      try {
        const before = await nonce();
        const sent = await client.callTool('send_tokens', sendArgs('60'));
        assert.notEqual(sent.isError, true, JSON.stringify(sent.content));
        assert.equal((sent.structuredContent as { success?: boolean }).success, true);
        assert.equal(asked.length, 1);
        assert.match(asked[0]!, /Call: currency\.transfer/);
        assert.match(asked[0]!, new RegExp(`To: ${FRIEND}`));
        assert.equal(await nonce(), before + 1);

        answer = { action: 'decline' };
        const declined = await client.callTool('send_tokens', sendArgs('61'));
        assert.equal(declined.isError, true);
        assert.match(JSON.stringify(declined.content), /confirmation_declined/);
        assert.equal(asked.length, 2);
        assert.equal(await nonce(), before + 1, 'nothing was sent');
      } finally {
        await client.close();
      }
    });
  }

  describe('2026-07-28 by hand: the answer counts once, for that transaction only', () => {
    let nextId = 1;
    const envelope = {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientInfo': { name: 'raw-client', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
    };

    async function call(args: Record<string, unknown>, retry: { inputResponses?: unknown; requestState?: string } = {}): Promise<{ result?: Record<string, unknown>; error?: { code: number; message: string } }> {
      const res = await fetch(running.host.url('/mcp'), {
        method: 'POST',
        headers: { ...AUTH, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'send_tokens' },
        body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name: 'send_tokens', arguments: args, _meta: envelope, ...retry } }),
      });
      const text = await res.text();
      const json = text.startsWith('{') ? text : text.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5)).pop()!;
      return JSON.parse(json);
    }

    async function ask(amount: string): Promise<string> {
      const first = await call(sendArgs(amount));
      assert.equal(first.result?.resultType, 'input_required', JSON.stringify(first));
      assert.match(JSON.stringify(first.result?.inputRequests), /elicitation\/create/);
      const state = first.result?.requestState;
      assert.equal(typeof state, 'string');
      assert.ok(!String(state).includes(TEST_TOKEN), 'the bearer token is not in the state');
      return state as string;
    }

    const accept = { confirm: { action: 'accept', content: {} } };
    const decline = { confirm: { action: 'decline' } };
    /** The `error.code` of a tool's isError result (its second text item is the `{"error":{…}}` body). */
    const errorCode = (r: { result?: Record<string, unknown> }) => {
      const body = (r.result?.content as Array<{ text: string }> | undefined)?.[1]?.text;
      return body ? (JSON.parse(body) as { error: { code: string } }).error.code : undefined;
    };

    it('accept sends; the same answer replayed is refused and sends nothing', async () => {
      const state = await ask('55');
      const before = await nonce();
      const sent = await call(sendArgs('55'), { inputResponses: accept, requestState: state });
      assert.notEqual(sent.result?.isError, true, JSON.stringify(sent));
      assert.equal(await nonce(), before + 1);
      const replay = await call(sendArgs('55'), { inputResponses: accept, requestState: state });
      assert.equal(replay.result?.isError, true, JSON.stringify(replay));
      // Refused: this process remembers the one-use id; any process sees the nonce has moved on.
      assert.ok(['confirmation_replayed', 'confirmation_mismatch'].includes(errorCode(replay)!), JSON.stringify(replay));
      assert.equal(await nonce(), before + 1, 'nothing more was sent');
    });

    it('an answer already used for a decline cannot be turned into an accept', async () => {
      const state = await ask('56');
      const before = await nonce();
      const declined = await call(sendArgs('56'), { inputResponses: decline, requestState: state });
      assert.equal(errorCode(declined), 'confirmation_declined');
      const replay = await call(sendArgs('56'), { inputResponses: accept, requestState: state });
      assert.equal(errorCode(replay), 'confirmation_replayed');
      assert.equal(await nonce(), before, 'nothing was sent');
    });

    it('an answer given for one transaction does not send another (altered amount or recipient)', async () => {
      const state = await ask('57');
      const before = await nonce();
      const altered = await call(sendArgs('58'), { inputResponses: accept, requestState: state });
      assert.equal(errorCode(altered), 'confirmation_mismatch', JSON.stringify(altered));
      const elsewhere = await call({ ...sendArgs('57'), to_address: devAccount(9).address }, { inputResponses: accept, requestState: state });
      assert.equal(errorCode(elsewhere), 'confirmation_mismatch', JSON.stringify(elsewhere));
      assert.equal(await nonce(), before, 'nothing was sent');
    });

    it('a tampered state is refused before the tool runs', async () => {
      const state = await ask('59');
      const before = await nonce();
      const [head, body, mac] = state.split('.');
      const forged = [head, body!.slice(0, -2) + (body!.endsWith('A') ? 'BB' : 'AA'), mac].join('.');
      const tampered = await call(sendArgs('59'), { inputResponses: accept, requestState: forged });
      assert.equal(tampered.error?.code, -32602, JSON.stringify(tampered));
      assert.equal(await nonce(), before, 'nothing was sent');
    });

    it('a client that declares no elicitation gets the fallback (refuse), as on the HTTP tool API', async () => {
      const before = await nonce();
      const res = await fetch(running.host.url('/mcp'), {
        method: 'POST',
        headers: { ...AUTH, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'send_tokens' },
        body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method: 'tools/call', params: { name: 'send_tokens', arguments: sendArgs('62'), _meta: { ...envelope, 'io.modelcontextprotocol/clientCapabilities': {} } } }),
      });
      const text = await res.text();
      assert.match(text, /confirmation_unavailable/);
      assert.equal(await nonce(), before);
    });
  });
});
