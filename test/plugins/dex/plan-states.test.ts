import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { HostAccounts } from '../../../core/keystore/host-accounts.js';
import { Keystore } from '../../../core/keystore/keystore.js';
import { DEFAULT_KEY_ARGUMENTS, SignerArguments } from '../../../core/tools/signer-arguments.js';
import { canonicalJson } from '../../../core/chain/canonical-json.js';
import { PlanRegistry } from '../../../plugins/dex/plan-registry.js';
import { checkPlanForSubmit } from '../../../plugins/dex/plan-check.js';
import { CHAIN_ID, OWNER, STRANGER, expectCode, planHarness, swapPlanBody } from './support/plan-fixtures.js';

const submit = (planId: string, key = OWNER.exportPrivateKey(), extra: Record<string, unknown> = {}) => ({ private_key: key, plan_id: planId, ...extra });

describe('dex plans: the state machine (spec part 3)', () => {
  describe('(none) → active: dex_plan_* issues an immutable audit plan', () => {
    it('returns an opaque plan_id, a SHA-256 digest of the canonical plan, and issue/expiry timestamps', () => {
      const h = planHarness();
      const { body, deadlineMs } = swapPlanBody(h.clock.ms);
      const issued = h.registry.issue(body, deadlineMs);
      assert.match(issued.planId, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(issued.plan.issued_at, issued.issuedAt);
      assert.equal(issued.plan.expires_at, issued.expiresAt);
      const canonical = canonicalJson(issued.plan as never);
      assert.equal(issued.canonical, canonical);
      assert.equal(issued.digest, 'sha256:' + createHash('sha256').update(canonical).digest('hex'));
      assert.equal(issued.issuedAt, new Date(h.clock.ms).toISOString());
      assert.equal(h.registry.state(issued.planId), 'active');
      assert.notEqual(h.registry.issue(body, deadlineMs).planId, issued.planId, 'ids are unique');
    });

    it('the stored copy is immutable: the returned plan is frozen and later edits cannot reach what is submitted', async () => {
      const h = planHarness();
      const { body, deadlineMs } = swapPlanBody(h.clock.ms);
      const issued = h.registry.issue(body, deadlineMs);
      assert.equal(Object.isFrozen(issued.plan), true);
      assert.throws(() => { (issued.plan as any).recipient = STRANGER.address; });
      (body as any).recipient = STRANGER.address; // the caller's own object
      ((body.calls as any)[1].kwargs).to = STRANGER.address;
      const r = await h.call('dex_submit_swap', submit(issued.planId));
      assert.equal(r.ok, true);
      assert.equal(h.sender.requests[1]!.kwargs!.to, OWNER.address);
    });

    it('expires_at is the earlier of the deadline and issue + TTL; a past deadline is refused', () => {
      const h = planHarness({ ttlSeconds: 60 });
      const long = swapPlanBody(h.clock.ms, { deadlineMinutes: 5 });
      assert.equal(h.registry.issue(long.body, long.deadlineMs).expiresAt, new Date(h.clock.ms + 60_000).toISOString());
      const short = swapPlanBody(h.clock.ms, { deadlineMinutes: 0.5 });
      assert.equal(h.registry.issue(short.body, short.deadlineMs).expiresAt, new Date(short.deadlineMs).toISOString());
      assert.throws(() => h.registry.issue(long.body, h.clock.ms - 1), /deadline must be in the future/);
    });

    it('TTL and capacity are bounded as the spec says (30..900 s, 1..1000 plans)', () => {
      for (const ttlSeconds of [29, 901, 30.5]) assert.throws(() => new PlanRegistry({ ttlSeconds, maxEntries: 10 }), /CHAIN_MCP_DEX_PLAN_TTL_SECONDS/);
      for (const maxEntries of [0, 1001]) assert.throws(() => new PlanRegistry({ ttlSeconds: 300, maxEntries }), /CHAIN_MCP_DEX_PLAN_MAX_ENTRIES/);
      assert.doesNotThrow(() => new PlanRegistry({ ttlSeconds: 30, maxEntries: 1 }));
      assert.doesNotThrow(() => new PlanRegistry({ ttlSeconds: 900, maxEntries: 1000 }));
    });
  });

  describe('active → consumed: the first submit', () => {
    it('consumes, submits the plan\'s calls in order and returns per-call receipts', async () => {
      const h = planHarness();
      const id = h.issue();
      const r = await h.call('dex_submit_swap', submit(id));
      assert.equal(r.ok, true);
      const out = (r as { result: any }).result;
      assert.equal(out.plan_status, 'consumed');
      assert.equal(out.operation, 'swap_exact_in');
      assert.equal(out.transactions.length, 2);
      assert.equal(out.success, true);
      assert.equal(out.calls_ran, 2);
      assert.equal(out.total_fee, '10', 'two calls of 100 chi at 20 chi per token');
      assert.deepEqual(out.transactions[0].fee, { chi_rate: '20', fee: '5', refunded: '0.5', refunded_share: '0.090909090909090909090909090909' });
      assert.equal(out.receipts, undefined, 'full receipts only with verbose');
      assert.deepEqual(h.sender.requests.map((q) => `${q.contract}.${q.function}`), ['currency.approve', 'con_dex.swapExactTokenForToken']);
      assert.equal(h.sender.requests.every((q) => q.simulate === true && q.wait === true), true);
      assert.equal(out.final_transaction.function, 'swapExactTokenForToken');
      assert.equal(h.registry.state(id), 'consumed');
    });

    it('a replay fails with 409 plan_consumed and sends nothing', async () => {
      const h = planHarness();
      const id = h.issue();
      assert.equal((await h.call('dex_submit_swap', submit(id))).ok, true);
      const sent = h.sender.requests.length;
      const e = expectCode(await h.call('dex_submit_swap', submit(id)), 'plan_consumed', 409);
      assert.match(e.message, /fresh plan/);
      assert.equal(e.details!.plan_status, 'consumed');
      assert.equal(h.sender.requests.length, sent);
    });

    it('1,000 concurrent submits of one plan: exactly one consumes it, 999 fail with plan_consumed', async function () {
      this.timeout(20_000);
      const h = planHarness();
      const id = h.issue();
      const outcomes = await Promise.all(Array.from({ length: 1000 }, () => h.call('dex_submit_swap', submit(id))));
      const ok = outcomes.filter((o) => o.ok);
      const consumed = outcomes.filter((o) => !o.ok && o.error.code === 'plan_consumed' && o.error.status === 409);
      assert.equal(ok.length, 1);
      assert.equal(consumed.length, 999);
      assert.equal(h.sender.requests.length, 2, 'only the winner sent its two calls');
    });

    it('consumption comes before wallet checks: a wrong key consumes the plan (403), the right key then finds it consumed', async () => {
      const h = planHarness();
      const id = h.issue();
      const e = expectCode(await h.call('dex_submit_swap', submit(id, STRANGER.exportPrivateKey())), 'plan_account_mismatch', 403);
      assert.equal(e.details!.plan_status, 'consumed');
      assert.equal(h.sender.requests.length, 0);
      expectCode(await h.call('dex_submit_swap', submit(id)), 'plan_consumed', 409);
    });

    it('a keystore account that is not the plan\'s is refused by name (plan_account_mismatch); the plan\'s own account submits', async () => {
      const home = await mkdtemp(path.join(os.tmpdir(), 'dex-accounts-'));
      try {
        const store = new Keystore(home, { scrypt: { n: 2 ** 10, r: 8, p: 1 } });
        await store.add('mallory', STRANGER, 'a passphrase of tests');
        await store.add('owner', OWNER, 'a passphrase of tests');
        const accounts = new HostAccounts(home);
        await accounts.unlock('a passphrase of tests');
        const h = planHarness();
        h.services.signers = new SignerArguments(DEFAULT_KEY_ARGUMENTS, () => accounts);
        const wrong = h.issue();
        const e = expectCode(await h.call('dex_submit_swap', { account: 'mallory', plan_id: wrong }), 'plan_account_mismatch', 403);
        assert.match(e.message, new RegExp(`^account "mallory" \\(${STRANGER.address}\\) is not the account the plan was made for: the plan belongs to account ${OWNER.address}`));
        const right = await h.call('dex_submit_swap', { account: 'owner', plan_id: h.issue() });
        assert.equal(right.ok, true);
        assert.equal(h.sender.requests.length, 2);
      } finally {
        await rm(home, { recursive: true, force: true });
      }
    });

    it('a plan for another chain id fails (and is consumed)', async () => {
      const h = planHarness();
      const id = h.issue({ chainId: 'other-chain-9' });
      const e = expectCode(await h.call('dex_submit_swap', submit(id)), 'plan_chain_mismatch', 409);
      assert.match(e.message, /other-chain-9/);
      expectCode(await h.call('dex_submit_swap', submit(id)), 'plan_consumed', 409);
      assert.equal(h.sender.requests.length, 0);
    });

    it('a plan whose deadline has passed fails at submit', () => {
      const now = Date.UTC(2030, 0, 1);
      const { body } = swapPlanBody(now, { deadlineMinutes: 1 });
      assert.throws(
        () => checkPlanForSubmit('p', body, { kind: 'swap', chainId: CHAIN_ID, signer: OWNER.address, nowMs: now + 61_000 }),
        (e: any) => e.code === 'plan_deadline_passed' && e.status === 410,
      );
    });

    it('a plan submitted with the wrong submit tool fails with plan_operation_mismatch (and is consumed)', async () => {
      const h = planHarness();
      const id = h.issue();
      expectCode(await h.call('dex_submit_add_liquidity', submit(id)), 'plan_operation_mismatch', 409);
      expectCode(await h.call('dex_submit_swap', submit(id)), 'plan_consumed', 409);
    });

    it('stays consumed when a later call fails after the approval succeeded; the error reports what executed', async () => {
      const h = planHarness({ steps: ['ok', 'fail_in_block'] });
      const id = h.issue();
      const e = expectCode(await h.call('dex_submit_swap', submit(id)), 'dex_transaction_failed', 422);
      assert.equal(e.details!.plan_status, 'consumed');
      assert.equal(e.details!.failed_call_index, 1);
      assert.equal(e.details!.reason, 'SNAKX: K');
      const txs = e.details!.transactions as any[];
      assert.equal(txs.length, 2);
      assert.equal(txs[0].success, true);
      assert.equal(txs[1].success, false);
      assert.equal(e.details!.total_fee, '10', 'both executed calls paid their fee');
      assert.equal((e.details!.calls_ran as string[]).length, 2);
      assert.match(e.message, /1 earlier call\(s\) stay executed/);
      expectCode(await h.call('dex_submit_swap', submit(id)), 'plan_consumed', 409);
      assert.equal(h.sender.requests.length, 2);
    });

    it('a failing dry run of the second call stops before sending it; the approval stays executed and the plan consumed', async () => {
      const h = planHarness({ steps: ['ok', 'fail_dry_run'] });
      const id = h.issue();
      const e = expectCode(await h.call('dex_submit_swap', submit(id)), 'dex_simulation_failed', 422);
      assert.equal(e.details!.completed_calls, 1);
      assert.equal(e.details!.reason, 'SNAKX: INSUFFICIENT_OUTPUT_AMOUNT');
      assert.equal(h.registry.state(id), 'consumed');
    });

    it('CHAIN_INCLUDE_RAW adds the dry runs, full receipts and timestamps (submits take no other argument)', async () => {
      const h = planHarness({ includeRaw: true });
      const out = (await h.call('dex_submit_swap', submit(h.issue())) as any).result;
      assert.equal(out.receipts.length, 2);
      assert.equal(out.simulations.length, 2);
      assert.equal(typeof out.transactions[1].kwargs, 'object');
      assert.equal(typeof out.issued_at, 'string');
    });

    it('simulate: false is passed on (the submitter then only estimates chi)', async () => {
      const h = planHarness();
      const id = h.issue();
      const r = await h.call('dex_submit_swap', submit(id, undefined, { simulate: false }));
      assert.equal(r.ok, true);
      assert.equal(h.sender.requests.every((q) => q.simulate === false), true);
      assert.equal((r as any).result.simulated, false);
    });

    it('a call not confirmed in time stops the run with 504 dex_transaction_pending', async () => {
      const h = planHarness({ steps: ['pending'] });
      const id = h.issue();
      const e = expectCode(await h.call('dex_submit_swap', submit(id)), 'dex_transaction_pending', 504);
      assert.equal(typeof e.details!.tx_hash, 'string');
      assert.equal(h.sender.requests.length, 1);
    });
  });

  describe('active → expired / evicted / lost', () => {
    it('expired: after the TTL a submit fails with 410 plan_expired', async () => {
      const h = planHarness({ ttlSeconds: 30 });
      const id = h.issue();
      h.clock.advance(29);
      assert.equal(h.registry.state(id), 'active');
      h.clock.advance(1);
      assert.equal(h.registry.state(id), 'expired');
      const e = expectCode(await h.call('dex_submit_swap', submit(id)), 'plan_expired', 410);
      assert.match(e.message, /fresh plan/);
      assert.equal(h.sender.requests.length, 0);
    });

    it('evicted: the oldest plan leaves when the cap is exceeded (410 plan_evicted); the rest stay active', async () => {
      const h = planHarness({ maxEntries: 3 });
      const ids = [h.issue(), h.issue(), h.issue()];
      assert.equal(h.registry.size, 3);
      const fourth = h.issue();
      assert.equal(h.registry.size, 3);
      assert.equal(h.registry.state(ids[0]!), 'evicted');
      expectCode(await h.call('dex_submit_swap', submit(ids[0]!)), 'plan_evicted', 410);
      for (const id of [ids[1]!, ids[2]!, fourth]) assert.equal(h.registry.state(id), 'active');
      assert.equal((await h.call('dex_submit_swap', submit(fourth))).ok, true);
    });

    it('expired plans are swept before live ones are evicted', () => {
      const h = planHarness({ maxEntries: 2, ttlSeconds: 30 });
      const old = h.issue();
      h.clock.advance(31);
      const a = h.issue();
      const b = h.issue();
      assert.equal(h.registry.state(old), 'expired');
      assert.equal(h.registry.state(a), 'active');
      assert.equal(h.registry.state(b), 'active');
    });

    it('lost: a restart (a new registry) loses every plan; submits fail with 410 plan_lost', async () => {
      const before = planHarness();
      const id = before.issue();
      const after = planHarness(); // a new process: fresh registry
      assert.equal(after.registry.state(id), 'lost');
      const e = expectCode(await after.call('dex_submit_swap', submit(id)), 'plan_lost', 410);
      assert.match(e.message, /restart/);
    });

    it('an id this process never issued is 404 plan_not_found', async () => {
      const h = planHarness();
      const id = h.issue();
      const mine = Buffer.from(id, 'base64url');
      mine[31] ^= 0xff; // same process tag, different random part
      expectCode(await h.call('dex_submit_swap', submit(mine.toString('base64url'))), 'plan_not_found', 404);
    });

    it('a made-up id (any 43 URL-safe characters) is plan_not_found, not plan_lost', async () => {
      const h = planHarness();
      for (const made of ['A'.repeat(43), 'abcdefghijklmnopqrstuvwxyz0123456789_-ABCDE', Buffer.alloc(32, 7).toString('base64url')]) {
        assert.equal(h.registry.state(made), 'unknown', made);
        expectCode(await h.call('dex_submit_swap', submit(made)), 'plan_not_found', 404);
      }
    });

    it('terminal states never come back: consumed, expired, evicted stay failing', async () => {
      const h = planHarness({ maxEntries: 1, ttlSeconds: 30 });
      const evicted = h.issue();
      const consumed = h.issue();
      await h.call('dex_submit_swap', submit(consumed));
      const expired = h.issue();
      h.clock.advance(60);
      for (let i = 0; i < 2; i++) {
        expectCode(await h.call('dex_submit_swap', submit(evicted)), 'plan_evicted', 410);
        expectCode(await h.call('dex_submit_swap', submit(consumed)), 'plan_consumed', 409);
        expectCode(await h.call('dex_submit_swap', submit(expired)), 'plan_expired', 410);
      }
    });
  });

  describe('submit close to the deadline (issue #18 item 1)', () => {
    it('refuses with 409 plan_expiring when the deadline leaves less than (calls + safety blocks) × block time; nothing is sent, the plan is consumed (spec §3)', async () => {
      const h = planHarness({ blockTimeMs: 6_000, safetyBlocks: 2 }); // 2 calls + 2 blocks = 24 s
      const id = h.issue(); // deadline now + 5 min
      h.clock.advance(300 - 20);
      const e = expectCode(await h.call('dex_submit_swap', submit(id)), 'plan_expiring', 409);
      assert.equal(e.details!.plan_status, 'consumed');
      assert.equal(e.details!.needed_ms, 24_000);
      assert.equal(e.details!.block_time_ms, 6_000);
      assert.match(e.message, /nothing was sent.*The plan is consumed: create a fresh plan/);
      assert.equal(h.sender.requests.length, 0, 'the approval was not sent');
      assert.equal(h.registry.state(id), 'consumed');
      // A second attempt finds it consumed.
      expectCode(await h.call('dex_submit_swap', submit(id)), 'plan_consumed', 409);
    });

    it('the first attempt consumes the plan before the wallet check: an unknown account consumes it too', async () => {
      const h = planHarness();
      const id = h.issue();
      const outcome = await h.call('dex_submit_swap', { account: 'nobody', plan_id: id });
      assert.equal(outcome.ok, false);
      const e = outcome.error!;
      assert.equal(e.details!.plan_status, 'consumed', e.message);
      assert.match(e.message, /the plan is consumed, create a fresh plan/);
      assert.equal(h.registry.state(id), 'consumed');
    });

    it('submits when the margin is there; the safety margin is configurable', async () => {
      const h = planHarness({ blockTimeMs: 6_000, safetyBlocks: 2 });
      const id = h.issue();
      h.clock.advance(300 - 25);
      assert.equal((await h.call('dex_submit_swap', submit(id))).ok, true);
      const tight = planHarness({ blockTimeMs: 6_000, safetyBlocks: 0 }); // 2 calls = 12 s
      const id2 = tight.issue();
      tight.clock.advance(300 - 13);
      assert.equal((await tight.call('dex_submit_swap', submit(id2))).ok, true);
    });

    it('the block time is the median gap of the latest blocks, capped (on-demand chains show idle gaps)', async () => {
      const { BlockTimeMeter, medianGap } = await import('../../../plugins/dex/block-time.js');
      assert.equal(medianGap([0, 1000, 2000, 60_000]), 1000);
      assert.equal(medianGap([0, 1000, 3000]), 1500);
      assert.equal(medianGap([5]), null);
      const metas = (times: number[]) => ({ last_height: String(times.length), block_metas: times.map((t) => ({ header: { time: new Date(t).toISOString() } })).reverse() });
      let calls = 0;
      const node = { blockchain: async () => { calls++; return metas([0, 5_000, 10_000, 400_000, 1_000_000]); } } as never;
      const meter = new BlockTimeMeter(node, { capMs: 30_000 });
      assert.equal(await meter.blockTimeMs(), 30_000, 'idle gaps are capped');
      const fast = new BlockTimeMeter({ blockchain: async () => metas([0, 2_000, 4_000, 6_000]) } as never);
      assert.equal(await fast.blockTimeMs(), 2_000);
      await meter.blockTimeMs();
      assert.equal(calls, 1, 'cached');
    });
  });

  describe('bad arguments (nothing consumed)', () => {
    it('calls, amounts and recipient cannot be supplied to a submit tool', async () => {
      const h = planHarness();
      const id = h.issue();
      for (const extra of [{ calls: [] }, { amount: '1' }, { recipient: STRANGER.address }, { kwargs: {} }]) {
        const e = expectCode(await h.call('dex_submit_swap', submit(id, undefined, extra)), 'invalid_arguments', 400);
        assert.match(e.message, /unknown argument/);
      }
      assert.equal(h.registry.state(id), 'active');
    });

    it('a malformed plan_id, a bad private key or a missing argument is 400 and the key is never echoed', async () => {
      const h = planHarness();
      const id = h.issue();
      expectCode(await h.call('dex_submit_swap', submit('short')), 'invalid_arguments', 400);
      expectCode(await h.call('dex_submit_swap', submit('x'.repeat(200))), 'invalid_arguments', 400);
      const badKey = 'zz' + 'ab'.repeat(31);
      const e = expectCode(await h.call('dex_submit_swap', submit(id, badKey)), 'invalid_arguments', 400);
      assert.equal(JSON.stringify(e.toBody()).includes(badKey), false);
      expectCode(await h.call('dex_submit_swap', { plan_id: id }), 'invalid_arguments', 400);
      expectCode(await h.call('dex_submit_swap', { private_key: OWNER.exportPrivateKey() }), 'invalid_arguments', 400);
      expectCode(await h.call('dex_submit_swap', submit(id, undefined, { simulate: 'yes' })), 'invalid_arguments', 400);
      assert.equal(h.registry.state(id), 'active');
    });

    it('the submit tools are unsafe and take exactly the signer (account or private_key), plan_id, simulate (default true)', () => {
      const h = planHarness();
      for (const name of ['dex_submit_swap', 'dex_submit_add_liquidity', 'dex_submit_remove_liquidity']) {
        const t = h.tools.get(name)!;
        assert.equal(t.capability, 'unsafe');
        assert.deepEqual(Object.keys(t.input.shape).sort(), ['account', 'plan_id', 'private_key', 'simulate']);
        assert.equal(t.input.parse({ private_key: OWNER.exportPrivateKey(), plan_id: 'a'.repeat(43) }).simulate, true);
      }
      for (const name of ['dex_plan_swap', 'dex_plan_add_liquidity', 'dex_plan_remove_liquidity']) assert.equal(h.tools.get(name)!.capability, 'read');
    });
  });
});
