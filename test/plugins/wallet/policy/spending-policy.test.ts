import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { decodedAbciQuery } from '../../../../core/chain/abci-value.js';
import { ChainDecimal } from '../../../../core/chain/decimal.js';
import type { ChainNode } from '../../../../core/chain/node.js';
import { spendOfDryRun, StateMovedError } from '../../../../plugins/wallet/policy/dry-run-spend.js';
import { DAY_MS, SpendLedger } from '../../../../plugins/wallet/policy/spend-ledger.js';
import { accountPolicySchema, checkSpend, remainingToday, type SpendPreview } from '../../../../plugins/wallet/policy/spending-policy.js';

const ME = 'a'.repeat(64);
const FRIEND = 'b'.repeat(64);
const STRANGER = 'c'.repeat(64);
const d = (text: string) => ChainDecimal.parse(text);

function preview(spent: Record<string, string>, credited: string[] = [], call = 'currency.transfer'): SpendPreview {
  const [contract, fn] = call.split('.') as [string, string];
  return { contract, function: fn, spent: new Map(Object.entries(spent).map(([k, v]) => [k, d(v)])), credited: new Set(credited) };
}

describe('spending policy (config only; checked before signing)', () => {
  const policy = accountPolicySchema.parse({
    maxPerTransaction: { currency: '100', con_token: '5.5' },
    maxPer24h: { currency: '250' },
    allowedContracts: ['currency', 'con_token', 'con_dex'],
    allowedFunctions: ['currency.transfer', 'con_token.transfer', 'con_dex.swapExactTokenForToken'],
    allowedRecipients: [FRIEND],
  });

  it('allows what fits every rule', () => {
    assert.equal(checkSpend(policy, preview({ currency: '100' }, [FRIEND]), new Map([['currency', d('150')]])), null);
  });

  it('names the rule it refuses by, and what is left of a limit', () => {
    const cases: [SpendPreview, Map<string, ChainDecimal>, string, Record<string, string> | undefined, RegExp][] = [
      [preview({}, [], 'con_evil.drain'), new Map(), 'allowedContracts', undefined, /contract con_evil is not among/],
      [preview({}, [], 'currency.approve'), new Map(), 'allowedFunctions', undefined, /currency\.approve is not among/],
      [preview({ currency: '1' }, [STRANGER]), new Map(), 'allowedRecipients', undefined, new RegExp(`would pay ${STRANGER}`)],
      [preview({ currency: '100.000000000000000000000000000001' }, [FRIEND]), new Map(), 'maxPerTransaction', { currency: '100' }, /at most 100 per transaction/],
      [preview({ con_token: '6' }, [FRIEND], 'con_token.transfer'), new Map(), 'maxPerTransaction', { con_token: '5.5' }, /6 of con_token/],
      [preview({ currency: '60' }, [FRIEND]), new Map([['currency', d('200.5')]]), 'maxPer24h', { currency: '49.5' }, /49\.5 of the account's 250 per 24 hours is left/],
    ];
    for (const [p, today, rule, remaining, message] of cases) {
      const denial = checkSpend(policy, p, today);
      assert.equal(denial?.rule, rule, JSON.stringify(denial));
      assert.deepEqual(denial?.remaining, remaining);
      assert.match(denial!.message, message);
    }
  });

  it('shows what is left of each daily limit, never below zero', () => {
    assert.deepEqual(remainingToday(policy, new Map([['currency', d('300')]])), { currency: '0' });
    assert.deepEqual(remainingToday(policy, new Map()), { currency: '250' });
  });

  it('rejects a policy that is not exact decimals and contract names', () => {
    assert.throws(() => accountPolicySchema.parse({ maxPerTransaction: { currency: 100 } }), /expected string/);
    assert.throws(() => accountPolicySchema.parse({ maxPerTransaction: { currency: '1e3' } }), /non-negative decimal string/);
    assert.throws(() => accountPolicySchema.parse({ allowedRecipients: ['alice'] }), /64-hex address/);
    assert.throws(() => accountPolicySchema.parse({ maxPerDay: {} }), /maxPerDay/);
  });
});

describe('spend ledger: a rolling 24 hours that survives a restart', () => {
  let home: string;
  let now = 1_000_000_000_000;
  beforeEach(async () => { home = await mkdtemp(path.join(os.tmpdir(), 'chain-ledger-')); });
  afterEach(() => rm(home, { recursive: true, force: true }));

  it('adds up reservations per account and token, forgets them after 24 h, and persists them', async () => {
    const ledger = await SpendLedger.open(home, () => now);
    await ledger.reserve(ME, new Map([['currency', d('10.25')], ['con_token', d('1')]]));
    now += DAY_MS - 1;
    await ledger.reserve(ME, new Map([['currency', d('5')]]));
    await ledger.reserve(FRIEND, new Map([['currency', d('99')]]));
    assert.deepEqual(Object.fromEntries([...ledger.spentToday(ME)].map(([k, v]) => [k, v.toString()])), { currency: '15.25', con_token: '1' });
    const reopened = await SpendLedger.open(home, () => now);
    assert.equal(reopened.spentToday(ME).get('currency')?.toString(), '15.25');
    now += 2;
    assert.equal(reopened.spentToday(ME).get('currency')?.toString(), '5');
    assert.equal((await stat(reopened.file)).mode & 0o777, 0o600);
  });

  it('releases a reservation the node never accepted', async () => {
    const ledger = await SpendLedger.open(home, () => now);
    const release = await ledger.reserve(ME, new Map([['currency', d('7')]]));
    await release();
    assert.equal(ledger.spentToday(ME).size, 0);
    assert.equal((await SpendLedger.open(home, () => now)).spentToday(ME).size, 0);
  });

  it('reads amounts written as JSON numbers exactly, and names the file and entry of a malformed one (never a TypeError, never a skipped entry)', async () => {
    const file = path.join(home, 'wallet', 'spend-ledger.json');
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, `{"version":1,"entries":[{"id":1,"account":"${ME}","token":"currency","amount":10.10000000000000000001,"at":${now}},{"id":2,"account":"${ME}","token":"currency","amount": 5 ,"at":${now}}]}`);
    assert.equal((await SpendLedger.open(home, () => now)).spentToday(ME).get('currency')?.toString(), '15.10000000000000000001');
    for (const [entry, named] of [['{"account":"x","token":"currency","amount":true,"at":1}', /entry 0 has amount true, not a non-negative decimal/], ['{"account":"x","token":"currency","amount":"1"}', /entry 0 has no time/], ['7', /entry 0 is not an object/]] as const) {
      await writeFile(file, `{"version":1,"entries":[${entry}]}`);
      await assert.rejects(SpendLedger.open(home, () => now), (err: Error) => err.message.startsWith(`${file}: `) && named.test(err.message) && /restore it from a backup/.test(err.message));
    }
  });

  it('refuses a damaged ledger instead of resetting every limit', async () => {
    const ledger = await SpendLedger.open(home, () => now);
    await ledger.reserve(ME, new Map([['currency', d('1')]]));
    await writeFile(ledger.file, (await readFile(ledger.file, 'utf8')).slice(0, 10));
    await assert.rejects(SpendLedger.open(home, () => now), /not valid JSON; .*restore it from a backup/);
  });
});

describe('spending read from the dry run', () => {
  /** A node answering /get from a fixed state, as the node formats values. */
  function nodeWith(state: Record<string, [info: string, text: string]>): ChainNode {
    return {
      query: async (p: string) => {
        const key = decodeURIComponent(p.replace(/^\/get\//, ''));
        const hit = state[key];
        return decodedAbciQuery({ code: 0, log: '', info: hit?.[0] ?? '', key, height: '5', codespace: '', valueText: hit?.[1] ?? null });
      },
    } as unknown as ChainNode;
  }

  it('counts balances that fall as spending, balances of others that grow as credits, and the fee in currency', async () => {
    const node = nodeWith({
      [`currency.balances:${ME}`]: ['decimal', '1000'],
      [`con_token.balances:${ME}`]: ['int', '50'],
      [`con_token.balances:${FRIEND}`]: ['int', '1'],
      'chi_cost.S:value': ['int', '20'],
    });
    const spend = await spendOfDryRun(node, {
      sender: ME, contract: 'con_dex', function: 'swapExactTokenForToken', chiSupplied: 30n, chiUsed: 0n,
      state: [
        { key: `con_token.balances:${ME}`, value: 48 },
        { key: `con_token.balances:${ME}`, value: 40 },
        { key: `con_token.balances:${FRIEND}`, value: 11 },
        { key: 'con_token.balances:con_pairs', value: 99 },
        { key: `currency.balances:${ME}`, value: '1000.5' },
        { key: 'con_dex.state:x', value: 1 },
      ],
    });
    assert.deepEqual(Object.fromEntries([...spend.spent].map(([k, v]) => [k, v.toString()])), { con_token: '10', currency: '1.5' });
    assert.deepEqual([...spend.credited], [FRIEND]);
  });

  it("does not count the fee twice: the dry run's own fee write is replaced by the fee of the chi supplied", async () => {
    const node = nodeWith({ [`currency.balances:${ME}`]: ['decimal', '1000'], 'chi_cost.S:value': ['int', '20'] });
    // transfer(60): the dry run writes 1000 − 60 − 39/20 (its chi_used at rate 20).
    const spend = await spendOfDryRun(node, {
      sender: ME, contract: 'currency', function: 'transfer', chiSupplied: 49n, chiUsed: 39n,
      state: [{ key: `currency.balances:${FRIEND}`, value: '60' }, { key: `currency.balances:${ME}`, value: '938.05' }],
    });
    assert.equal(spend.spent.get('currency')?.toString(), '62.45');
    assert.equal(spend.fee?.toString(), '2.45');
  });

  it('counts a rise of an allowance the account grants as spending to the spender, new and legacy keys alike, and names it', async () => {
    const node = nodeWith({ [`con_token.approvals:${ME}:${STRANGER}`]: ['int', '5'], 'chi_cost.S:value': ['int', '20'] });
    const spend = await spendOfDryRun(node, {
      sender: ME, contract: 'con_token', function: 'approve', chiSupplied: 20n, chiUsed: 0n,
      state: [
        { key: `con_token.approvals:${ME}:${STRANGER}`, value: 900 },
        { key: `currency.balances:${ME}:con_dex`, value: '7.5' },
        // Someone else's allowance, or one granted to the account, is not the account's spending.
        { key: `con_token.approvals:${FRIEND}:${ME}`, value: 50 },
      ],
    });
    assert.deepEqual(Object.fromEntries([...spend.spent].map(([k, v]) => [k, v.toString()])), { con_token: '895', currency: '8.5' });
    assert.deepEqual([...spend.credited].sort(), [STRANGER, 'con_dex'].sort());
    assert.deepEqual(spend.approvals.map((a) => [a.token, a.spender, a.amount.toString()]), [['con_token', STRANGER, '895'], ['currency', 'con_dex', '7.5']]);
    const denial = checkSpend(accountPolicySchema.parse({ allowedRecipients: [FRIEND] }), spend, new Map());
    assert.equal(denial?.rule, 'allowedRecipients');
  });

  it('does not count twice what a call takes through an allowance the account granted (counted at the approval)', async () => {
    const node = nodeWith({
      [`con_token.balances:${ME}`]: ['int', '100'],
      [`con_token.approvals:${ME}:con_dex`]: ['int', '30'],
      'chi_cost.S:value': ['int', '20'],
    });
    const spend = await spendOfDryRun(node, {
      sender: ME, contract: 'con_dex', function: 'swapExactTokenForToken', chiSupplied: 20n, chiUsed: 0n,
      state: [{ key: `con_token.approvals:${ME}:con_dex`, value: 0 }, { key: `con_token.balances:${ME}`, value: 65 }],
    });
    // 35 left the account, 30 of them through the allowance already counted: 5 more.
    assert.equal(spend.spent.get('con_token')?.toString(), '5');
    assert.deepEqual(spend.approvals, []);
  });

  it('refuses to mix states: a read answered at another height than the dry run is StateMovedError', async () => {
    const node = nodeWith({ [`currency.balances:${ME}`]: ['decimal', '1000'], 'chi_cost.S:value': ['int', '20'] });
    const run = { sender: ME, contract: 'currency', function: 'transfer', chiSupplied: 49n, chiUsed: 39n, state: [{ key: `currency.balances:${ME}`, value: '938.05' }] };
    await assert.rejects(spendOfDryRun(node, { ...run, height: '4' }), (err: unknown) => err instanceof StateMovedError && err.readHeight === '5');
    assert.equal((await spendOfDryRun(node, { ...run, height: '5' })).spent.get('currency')?.toString(), '62.45');
    // A node that reports no height (upstream answers 0) cannot be checked, and is not refused.
    assert.equal((await spendOfDryRun(node, { ...run, height: '0' })).spent.get('currency')?.toString(), '62.45');
  });
});
