import assert from 'node:assert/strict';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type * as Kit from './support/dex-host.js';
import type { DexChain, DexHost, Outcome } from './support/dex-host.js';

/**
 * DEX plans and helper trades sign through the same pre-sign guard as wallet sends: a keystore
 * account's spending policy refuses the call that would spend too much before it is signed, and
 * the person confirming sees each call with the plan's digest. Over MCP Streamable HTTP (the
 * elicitation request travels on the tools/call's own stream).
 */
describe('DEX submits and helper trades under the spending policy and confirmation', function () {
  this.timeout(120_000);
  let kit: typeof Kit;
  let chain: DexChain;
  let h: DexHost;
  let client: Client;
  const asked: string[] = [];

  before(async () => {
    kit = await import('./support/dex-host.js');
    const { Keystore } = await import('../../../core/keystore/keystore.js');
    const { Wallet } = await import('../../../core/chain/keys.js');
    chain = await kit.openDevnet();
    const trader = kit.devAccount(2);
    const keystore = new Keystore(path.join(chain.home, 'host'), { scrypt: { n: 2 ** 10, r: 8, p: 1 } });
    await keystore.add('trader', Wallet.fromPrivateKey(trader.privateKey), 'correct horse battery staple');
    await keystore.add('guarded', Wallet.fromPrivateKey(kit.devAccount(3).privateKey), 'correct horse battery staple');
    h = await kit.startDexHost(chain, {
      plugins: {
        wallet: {
          policies: {
            trader: { maxPerTransaction: { currency: '100', con_test_token: '2' } },
            // May trade through the router and the helper (their approvals), pay no one else.
            guarded: { allowedRecipients: ['con_dex', 'con_dex_helper'], maxPer24h: { currency: '500' } },
          },
          confirm: { ask: 'always', fallback: 'refuse', timeoutSeconds: 10 },
        },
        dex: {},
        query: {},
      },
    });
    const { TEST_TOKEN } = await import('../../support/test-host.js');
    client = new Client({ name: 'dex-policy-test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: {} };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(h.host.url('/mcp')), { requestInit: { headers: { authorization: `Bearer ${TEST_TOKEN}` } } }));
  });
  after(async () => {
    await client?.close();
    await h?.stop();
    await chain?.close();
  });

  const trader = () => kit.devAccount(2);
  async function mcp(name: string, args: Record<string, unknown>): Promise<Outcome> {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    if (!result.isError) return { ok: true, result: result.structuredContent };
    const body = JSON.parse((result.content[1] as { text: string }).text);
    return { ok: false, result: undefined, error: body.error };
  }
  const nonce = async () => Number(kit.ok(await h.http('get_next_nonce', { address: trader().address })).nonce);

  // A swap's chi on the VM (module loads, three cross-contract calls, storage) makes its maximum fee about
  // 61 currency at the devnet's chi rate, counted with the amount in currency.
  it('a plan within the policy runs, each call confirmed with the plan digest', async () => {
    asked.length = 0;
    const plan = kit.ok(await mcp('dex_plan_swap', { token_in: 'currency', token_out: 'con_test_token', amount: '10', account: trader().address, recipient: trader().address }));
    const done = await mcp('dex_submit_swap', { private_key: trader().privateKey, plan_id: plan.plan_id });
    assert.equal(done.ok, true, JSON.stringify(done.error));
    assert.equal(asked.length, plan.plan.calls.length);
    for (const [i, message] of asked.entries()) {
      assert.ok(message.includes(`plan digest: ${plan.plan_digest}`), message);
      assert.ok(message.includes(`step: call ${i + 1} of ${plan.plan.calls.length}`), message);
      assert.ok(message.includes('(account trader)'), message);
    }
  });

  it('the plan call over the per-transaction limit is refused before it is signed: the approve step already counts the amount', async () => {
    const plan = kit.ok(await mcp('dex_plan_swap', { token_in: 'currency', token_out: 'con_test_token', amount: '120', account: trader().address, recipient: trader().address }));
    const before = await nonce();
    const tokenBefore = await kit.stateDecimal(chain.node, `con_test_token.balances:${trader().address}`);
    const outcome = await mcp('dex_submit_swap', { private_key: trader().privateKey, plan_id: plan.plan_id });
    assert.equal(outcome.ok, false);
    assert.equal(outcome.error!.code, 'policy_denied');
    assert.match(outcome.error!.message, /rule maxPerTransaction.*at most 100 per transaction/);
    // Approvals are spending: the approve of 120 currency to con_dex is the call refused, so nothing is signed.
    assert.equal(outcome.error!.details?.failed_call, 'currency.approve');
    assert.equal(Number(outcome.error!.details?.completed_calls), 0);
    assert.equal(await nonce(), before, 'nothing was signed');
    assert.equal((await kit.stateDecimal(chain.node, `con_test_token.balances:${trader().address}`)).toString(), tokenBefore.toString());
  });

  it('a helper trade over the limit of its token is refused before the trade is signed', async () => {
    const before = await nonce();
    const outcome = await mcp('sell_on_dex', { private_key: trader().privateKey, sell_token: 'con_test_token', amount: '3' });
    assert.equal(outcome.ok, false);
    assert.equal(outcome.error!.code, 'policy_denied');
    assert.match(outcome.error!.message, /would spend 3 of con_test_token; the account may spend at most 2 per transaction/);
    const ran = Number(outcome.error!.details?.completed_calls ?? 0);
    assert.equal(await nonce(), before + ran);
  });

  describe('the escapes of issue #29 through the DEX, by raw key of a policy account', () => {
    const guarded = () => kit.devAccount(3);
    const mule = () => kit.devAccount(11).address;
    const spent = async () => ChainDecimalOf(kit.ok(await h.http('get_account_policy', { account: 'guarded' })).spent_24h.currency ?? '0');
    const ChainDecimalOf = (text: string) => kit.ChainDecimal.parse(text);

    it('a plan whose swap pays a mule is refused at the swap (allowedRecipients); its approve was counted once', async () => {
      const before = await spent();
      const plan = kit.ok(await mcp('dex_plan_swap', { token_in: 'currency', token_out: 'con_test_token', amount: '5', account: guarded().address, recipient: mule() }));
      const outcome = await mcp('dex_submit_swap', { private_key: guarded().privateKey, plan_id: plan.plan_id });
      assert.equal(outcome.ok, false);
      assert.equal(outcome.error!.code, 'policy_denied', outcome.error!.message);
      assert.equal(outcome.error!.details?.rule, 'allowedRecipients');
      assert.match(outcome.error!.message, new RegExp(mule()));
      assert.equal(await kit.stateDecimal(chain.node, `con_test_token.balances:${mule()}`).then((d) => d.toString()), '0');
      // The approve of 5 currency to con_dex ran (an allowed spender) and counted 5 plus its fee.
      const counted = (await spent()).minus(before);
      assert.ok(counted.gt('5') && counted.lt('30'), `counted ${counted.toString()}`);
    });

    it('buy_on_dex counts what it pays once: the approve to the helper, not again when the helper pulls it', async () => {
      const before = await spent();
      const balanceBefore = await kit.stateDecimal(chain.node, `currency.balances:${guarded().address}`);
      const outcome = await mcp('buy_on_dex', { private_key: guarded().privateKey, buy_token: 'con_test_token', amount: '0.5', slippage: '5' });
      assert.equal(outcome.ok, true, JSON.stringify(outcome.error));
      const paid = balanceBefore.minus(await kit.stateDecimal(chain.node, `currency.balances:${guarded().address}`));
      const counted = (await spent()).minus(before);
      // Counted = the approval (≥ what the helper pulled) plus fees supplied (≥ fees paid); not twice the price.
      assert.ok(!counted.lt(paid), `counted ${counted.toString()} < paid ${paid.toString()}`);
      assert.ok(counted.lt(paid.plus(paid)), `counted ${counted.toString()} ≥ twice paid ${paid.toString()}`);
    });
  });
});
