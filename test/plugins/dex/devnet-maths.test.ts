import assert from 'node:assert/strict';
import type * as Kit from './support/dex-host.js';
import type { DexChain, DexHost } from './support/dex-host.js';

/**
 * The plugin's maths against the devnet's contracts: what a plan quotes is exactly what the
 * chain then does — reserves and balances move by the quoted amounts, to the last digit.
 */
describe('dex on the devnet: quotes equal execution', function () {
  this.timeout(60_000);
  let kit: typeof Kit;
  let chain: DexChain;
  let h: DexHost;
  let A: { address: string; privateKey: string };
  let B: { address: string; privateKey: string };
  let D: (text: string) => Kit.ChainDecimal;
  const ok = (o: Kit.Outcome) => kit.ok(o);

  before(async () => {
    kit = await import('./support/dex-host.js'); // one ES module graph with the host (see dex-host.ts)
    D = (text) => kit.ChainDecimal.parse(text);
    A = kit.devAccount(1);
    B = kit.devAccount(2);
    chain = await kit.openDevnet();
    h = await kit.startDexHost(chain);
  });
  after(async () => {
    await h?.stop();
    await chain?.close();
  });

  const reserves = async (id: number) => {
    const p = ok(await h.http('dex_get_pair', { pair_id: id })).pair;
    return { token0: p.token0 as string, r0: D(p.reserve0), r1: D(p.reserve1), supply: D(p.total_supply), lp: p.lp_token as string };
  };
  const balance = (token: string, who: string) => kit.stateDecimal(chain.node, `${token}.balances:${who}`);

  async function planAndSubmit(tool: string, args: Record<string, unknown>, submitTool: string) {
    const plan = ok(await h.http(tool, args));
    const done = ok(await h.http(submitTool, { private_key: A.privateKey, plan_id: plan.plan_id }));
    assert.equal(done.plan_status, 'consumed');
    for (const r of done.transactions) assert.equal(r.success, true, r.error);
    return { plan, done };
  }

  it('exact in, one hop: the pair and both balances move by exactly the quoted amounts', async () => {
    const before = await reserves(1); // con_test_usd / currency
    const usd0 = await balance('con_test_usd', A.address);
    const cur0 = await balance('currency', B.address);
    const { plan, done } = await planAndSubmit('dex_plan_swap', {
      token_in: 'con_test_usd', token_out: 'currency', amount: '123.456', account: A.address, recipient: B.address, slippage_bps: 50,
    }, 'dex_submit_swap');
    const amounts = plan.plan.amounts;
    assert.equal(plan.plan.calls.length, 2, 'approval + swap');
    assert.deepEqual(plan.plan.calls[0], { contract: 'con_test_usd', function: 'approve', kwargs: { amount: { __fixed__: '123.456' }, to: 'con_dex' } });
    const after = await reserves(1);
    const inD = D(amounts.call_input);
    const outD = D(amounts.quoted_output);
    assert.equal(after.r0.toString(), before.r0.plus(inD).toString());
    assert.equal(after.r1.toString(), before.r1.minus(outD).toString());
    assert.equal((await balance('con_test_usd', A.address)).toString(), usd0.minus(inD).toString());
    assert.equal((await balance('currency', B.address)).toString(), cur0.plus(outD).toString());
    assert.equal(done.transactions[1].result, amounts.quoted_output, 'the router returns the output amount');
  });

  it('exact in, two hops: every hop\'s pair moves by its quoted hop amounts', async () => {
    const p1 = await reserves(1);
    const p2 = await reserves(2);
    const q = ok(await h.http('dex_quote_exact_in', { token_in: 'con_test_usd', token_out: 'con_test_token', amount_in: '10', account: A.address }));
    assert.deepEqual(q.path, [1, 2]);
    const { plan } = await planAndSubmit('dex_plan_swap', {
      token_in: 'con_test_usd', token_out: 'con_test_token', amount: '10', account: A.address, recipient: A.address,
    }, 'dex_submit_swap');
    assert.equal(plan.plan.call.function, 'swapExactTokensForTokens');
    assert.deepEqual(plan.plan.route.hops, q.hops, 'the plan uses the quote it was built from');
    const [h1, h2] = q.hops;
    const a1 = await reserves(1);
    const a2 = await reserves(2);
    // pair 1: con_test_usd (token0) in, currency (token1) out; pair 2: currency (token1) in, con_test_token (token0) out
    assert.equal(a1.r0.toString(), p1.r0.plus(D(h1.amount_in)).toString());
    assert.equal(a1.r1.toString(), p1.r1.minus(D(h1.amount_out)).toString());
    assert.equal(a2.r1.toString(), p2.r1.plus(D(h2.amount_in)).toString());
    assert.equal(a2.r0.toString(), p2.r0.minus(D(h2.amount_out)).toString());
  });

  it('exact out intent: at least the requested output arrives and the pair moves by the call input', async () => {
    const before = await reserves(2);
    const tst0 = await balance('con_test_token', A.address);
    const { plan } = await planAndSubmit('dex_plan_swap', {
      token_in: 'currency', token_out: 'con_test_token', amount: '25', mode: 'exact_out', account: A.address, recipient: A.address, slippage_bps: 100,
    }, 'dex_submit_swap');
    assert.equal(plan.plan.operation, 'swap_exact_out_intent');
    const callInput = D(plan.plan.amounts.call_input);
    assert.equal(callInput.gt(D(plan.plan.amounts.quoted_input)), true);
    assert.equal(plan.plan.amounts.minimum_output, '25');
    const after = await reserves(2);
    assert.equal(after.r1.toString(), before.r1.plus(callInput).toString());
    const received = (await balance('con_test_token', A.address)).minus(tst0);
    assert.equal(received.gte(D('25')), true);
    assert.equal(before.r0.minus(after.r0).toString(), received.toString());
  });

  it('add then remove liquidity: deposits, LP minted and payouts equal the plans\' expectations', async () => {
    const before = await reserves(1);
    const { plan: add, done } = await planAndSubmit('dex_plan_add_liquidity', {
      token_a: 'currency', token_b: 'con_test_usd', amount_a_desired: '200', amount_b_desired: '500', account: A.address, recipient: A.address,
    }, 'dex_submit_add_liquidity');
    const am = add.plan.amounts;
    assert.equal(add.plan.calls.length, 3, 'two approvals + addLiquidity');
    const mid = await reserves(1);
    // token0 = con_test_usd = token_b
    assert.equal(mid.r0.toString(), before.r0.plus(D(am.amount_b_expected)).toString());
    assert.equal(mid.r1.toString(), before.r1.plus(D(am.amount_a_expected)).toString());
    assert.equal(mid.supply.minus(before.supply).toString(), am.liquidity_expected);
    assert.match(done.transactions[2].result, new RegExp(am.liquidity_expected.replace('.', '\\.')));

    const lpBalance = await balance(mid.lp, A.address);
    const { plan: rem } = await planAndSubmit('dex_plan_remove_liquidity', {
      token_a: 'con_test_usd', token_b: 'currency', liquidity: '100.5', account: A.address, recipient: A.address,
    }, 'dex_submit_remove_liquidity');
    assert.deepEqual(rem.plan.calls[0], { contract: mid.lp, function: 'approve', kwargs: { amount: { __fixed__: '100.5' }, to: 'con_dex' } });
    const end = await reserves(1);
    assert.equal(mid.r0.minus(end.r0).toString(), rem.plan.amounts.amount_a_expected);
    assert.equal(mid.r1.minus(end.r1).toString(), rem.plan.amounts.amount_b_expected);
    assert.equal((await balance(mid.lp, A.address)).toString(), lpBalance.minus(D('100.5')).toString());
  });

  it('no approval when the allowance already covers the input', async () => {
    ok(await h.http('send_transaction', { private_key: A.privateKey, contract: 'currency', function: 'approve', kwargs: { amount: '1000', to: 'con_dex' } }));
    const plan = ok(await h.http('dex_plan_swap', { token_in: 'currency', token_out: 'con_test_usd', amount: '5', account: A.address, recipient: A.address }));
    assert.equal(plan.plan.calls.length, 1);
    assert.equal(plan.plan.allowance.approval_added, false);
    assert.equal(plan.plan.allowance.current_allowance, '1000');
  });

  it('sell_on_dex and buy_on_dex add and report the exact helper approval, and match the helper maths', async () => {
    const sell = ok(await h.http('sell_on_dex', { private_key: A.privateKey, sell_token: 'con_test_usd', amount: '3.5', slippage: '0.5', deadline_min: '2', verbose: true }));
    assert.equal(sell.approval.approval_added, true);
    assert.equal(sell.approval.spender, 'con_dex_helper');
    assert.equal(sell.approval.required, '3.5');
    assert.equal(sell.approval.transaction.success, true);
    assert.equal(sell.success, true);
    assert.equal(sell.kwargs.slippage.__fixed__, '0.5');
    assert.equal(sell.kwargs.deadline.__time__.length, 7);
    assert.equal(sell.result.includes(sell.trade.expected_output), true, `helper returned ${sell.result}`);

    const buy = ok(await h.http('buy_on_dex', { private_key: A.privateKey, buy_token: 'con_test_token', amount: '7', slippage: 1 }));
    assert.equal(buy.approval.approval_added, true);
    assert.equal(buy.success, true);
    const allowanceLeft = await kit.stateDecimal(chain.node, `currency.approvals:${A.address}:con_dex_helper`);
    assert.equal(allowanceLeft.toString(), '0', 'the helper pulled exactly the approved input');
  });

  it('refuses quotes the contracts would refuse, as errors (not success payloads)', async () => {
    const e = await h.http('dex_quote_exact_out', { token_in: 'currency', token_out: 'con_test_usd', amount_out: '1000000000' });
    assert.equal(e.ok, false);
    assert.equal(e.status, 422);
    assert.equal(e.error!.code, 'dex_market_rejected');
    assert.match(e.error!.message, /SNAKX: INSUFFICIENT_LIQUIDITY/);
    const missing = await h.http('get_dex_price', { token_contract: 'con_nope' });
    assert.equal(missing.status, 404);
    assert.equal(missing.error!.code, 'dex_pair_not_found');
  });

  it('a zero-fee signer is quoted at 0 bps and the chain agrees to the last digit', async () => {
    const owner = kit.devAccount(0); // the genesis treasury owns con_dex
    const C = kit.devAccount(3);
    ok(await h.http('send_transaction', { private_key: owner.privateKey, contract: 'con_dex', function: 'set_zero_fee_trader', kwargs: { account: C.address, enabled: true } }));
    const q = ok(await h.http('dex_quote_exact_in', { token_in: 'currency', token_out: 'con_test_usd', amount_in: '50', account: C.address }));
    assert.equal(q.fee_bps, 0);
    const q30 = ok(await h.http('dex_quote_exact_in', { token_in: 'currency', token_out: 'con_test_usd', amount_in: '50' }));
    assert.equal(q30.fee_bps, 30);
    assert.equal(D(q.amount_out).gt(D(q30.amount_out)), true);
    const plan = ok(await h.http('dex_plan_swap', { token_in: 'currency', token_out: 'con_test_usd', amount: '50', account: C.address, recipient: C.address }));
    assert.equal(plan.plan.fee.trade_fee_bps, 0);
    const before = await balance('con_test_usd', C.address);
    const done = ok(await h.http('dex_submit_swap', { private_key: C.privateKey, plan_id: plan.plan_id }));
    assert.equal(done.final_transaction.success, true);
    assert.equal((await balance('con_test_usd', C.address)).minus(before).toString(), q.amount_out);
  });

  it('reads: price in both directions, bounded pair listing with a token filter, pair by id or tokens', async () => {
    const price = ok(await h.http('get_dex_price', { token_contract: 'con_test_usd', base_contract: 'currency' }));
    const pair = ok(await h.http('dex_get_pair', { token_a: 'currency', token_b: 'con_test_usd' })).pair;
    assert.equal(price.price, D(pair.reserve1).div(D(pair.reserve0)).toString(), 'currency per 1 con_test_usd');
    assert.equal(price.price_inverse, D(pair.reserve0).div(D(pair.reserve1)).toString());
    assert.equal(price.price_direction, 'currency per 1 con_test_usd');
    const reversed = ok(await h.http('get_dex_price', { token_contract: 'currency', base_contract: 'con_test_usd' }));
    assert.equal(reversed.price, price.price_inverse);

    const list = ok(await h.http('dex_list_pairs', { limit: 1 }));
    assert.equal(list.count, 1);
    assert.equal(list.total_pairs, 2);
    assert.equal(list.items[0].pair_id, 1);
    const page2 = ok(await h.http('dex_list_pairs', { limit: 1, offset: 1 }));
    assert.equal(page2.items[0].pair_id, 2);
    const filtered = ok(await h.http('dex_list_pairs', { token: 'con_test_usd' }));
    assert.deepEqual(filtered.items.map((p: any) => p.pair_id), [1]);
    assert.equal(filtered.total_matching, 1);
    assert.equal((await h.http('dex_list_pairs', { limit: 501 })).status, 422);

    assert.equal(ok(await h.http('dex_get_pair', { pair_id: 2 })).pair.token0, 'con_test_token');
    assert.deepEqual(ok(await h.http('dex_get_pair', { pair_id: 99 })).found, false);
    const none = ok(await h.http('dex_get_pair', { token_a: 'currency', token_b: 'con_nope' }));
    assert.equal(none.found, false);
    assert.equal(none.token_b, 'con_nope');
    assert.equal((await h.http('dex_get_pair', { pair_id: 1, token_a: 'currency', token_b: 'con_test_usd' })).status, 422);
    assert.equal((await h.http('dex_get_pair', {})).status, 422);
    assert.equal((await h.http('dex_get_pair', { token_a: 'currency' })).status, 422);
  });

  it('bad plan arguments are 422s naming the field (the HTTP tool API)', async () => {
    const base = { token_in: 'currency', token_out: 'con_test_usd', amount: '1', account: A.address, recipient: A.address };
    for (const [patch, field] of [
      [{ amount: '-1' }, 'amount'], [{ amount: '1.0000000000000000000000000000001' }, 'amount'], [{ amount: 'ten' }, 'amount'],
      [{ slippage_bps: 10_001 }, 'slippage_bps'], [{ account: 'nope' }, 'account'], [{ recipient: undefined }, 'recipient'],
      [{ max_hops: 6 }, 'max_hops'], [{ path: [] }, 'path'], [{ mode: 'both' }, 'mode'], [{ deadline_minutes: 0 }, 'deadline_minutes'],
      [{ token_out: 'currency' }, 'token_out'],
    ] as const) {
      const r = await h.http('dex_plan_swap', { ...base, ...patch });
      assert.equal(r.status, 422, JSON.stringify(patch));
      assert.equal(r.error!.code, 'invalid_arguments');
      assert.ok(JSON.stringify(r.error).includes(field), `${field}: ${r.error!.message}`);
    }
  });

  it('plan TTL and capacity come from the environment; plan errors are HTTP 4xx and MCP isError, never success payloads', async () => {
    const small = await kit.startDexHost(chain, { name: 'small', env: { CHAIN_MCP_DEX_PLAN_TTL_SECONDS: '30', CHAIN_MCP_DEX_PLAN_MAX_ENTRIES: '1' } });
    try {
      const args = { token_in: 'currency', token_out: 'con_test_usd', amount: '1', account: A.address, recipient: A.address };
      const first = ok(await small.http('dex_plan_swap', args));
      assert.equal(Date.parse(first.expires_at) - Date.parse(first.issued_at), 30_000);
      const second = ok(await small.mcp('dex_plan_swap', args));
      const evicted = await small.http('dex_submit_swap', { private_key: A.privateKey, plan_id: first.plan_id });
      assert.equal(evicted.status, 410);
      assert.equal(evicted.error!.code, 'plan_evicted');
      assert.match(evicted.error!.message, /fresh plan/);
      assert.equal(ok(await small.mcp('dex_submit_swap', { private_key: A.privateKey, plan_id: second.plan_id })).plan_status, 'consumed');
      const replay = await small.client.callTool({ name: 'dex_submit_swap', arguments: { private_key: A.privateKey, plan_id: second.plan_id } });
      assert.equal(replay.isError, true);
      const body = JSON.parse((replay.content as Array<{ text: string }>)[1]!.text);
      assert.equal(body.error.code, 'plan_consumed');
      const http = await small.http('dex_submit_swap', { private_key: A.privateKey, plan_id: second.plan_id });
      assert.equal(http.status, 409);
      const lost = await h.http('dex_submit_swap', { private_key: A.privateKey, plan_id: first.plan_id });
      assert.equal(lost.status, 410, 'another server process never had the plan');
      assert.equal(lost.error!.code, 'plan_lost');
    } finally {
      await small.stop();
    }
  });

  it('unsafe DEX tools are hidden and refused without the unsafe flag; read tools stay', async () => {
    const readOnly = await kit.startDexHost(chain, { name: 'read-only', unsafe: false });
    try {
      const names = (await readOnly.client.listTools()).tools.map((t) => t.name);
      for (const n of ['dex_submit_swap', 'dex_submit_add_liquidity', 'dex_submit_remove_liquidity', 'buy_on_dex', 'sell_on_dex']) assert.equal(names.includes(n), false, n);
      for (const n of ['get_dex_price', 'dex_plan_swap', 'dex_quote_exact_in', 'dex_wait_live_event']) assert.equal(names.includes(n), true, n);
      const refused = await readOnly.http('dex_submit_swap', { private_key: A.privateKey, plan_id: 'a'.repeat(43) });
      assert.equal(refused.status, 403);
      assert.equal(refused.error!.code, 'unsafe_disabled');
    } finally {
      await readOnly.stop();
    }
  });

  it('dex_wait_live_event: bounded, filtered, and checks declared DEX events', async () => {
    const quiet = ok(await h.http('dex_wait_live_event', { contract: 'con_pairs', event: 'Swap', timeout_seconds: 0.3 }));
    assert.deepEqual([quiet.timed_out, quiet.count, quiet.durable, quiet.delivery], [true, 0, false, 'cometbft_websocket']);
    assert.match(quiet.warning, /not replayed/);
    const wrong = await h.http('dex_wait_live_event', { contract: 'con_pairs', event: 'Transfer' });
    assert.equal(wrong.status, 422);
    assert.equal((await h.http('dex_wait_live_event', { contract: 'con_pairs', event: 'Swap', timeout_seconds: 121 })).status, 422);
    assert.equal((await h.http('dex_wait_live_event', { contract: 'con_pairs', event: 'Swap', max_events: 51 })).status, 422);

    // two swaps by A; wait for Sync events only of the second transaction
    const plan = (amount: string) => h.http('dex_plan_swap', { token_in: 'currency', token_out: 'con_test_token', amount, account: A.address, recipient: A.address });
    const p1 = ok(await plan('1'));
    const p2 = ok(await plan('2'));
    const first = ok(await h.http('dex_submit_swap', { private_key: A.privateKey, plan_id: p1.plan_id }));
    const live = h.http('dex_wait_live_event', { contract: 'con_pairs', event: 'Sync', timeout_seconds: 10, max_events: 1, signer: A.address, caller: 'con_dex' });
    await new Promise((r) => setTimeout(r, 300));
    const second = ok(await h.http('dex_submit_swap', { private_key: A.privateKey, plan_id: p2.plan_id }));
    const seen = ok(await live);
    const hashes = new Set(seen.items.map((i: any) => i.tx_hash));
    assert.equal(hashes.has(first.final_transaction.tx_hash), false, 'events before the wait are not replayed');
    assert.equal(hashes.has(second.final_transaction.tx_hash), true);
    assert.equal(seen.timed_out, false);
    assert.equal(seen.items.every((i: any) => i.caller === 'con_dex' && i.signer === A.address), true);
  });
});
