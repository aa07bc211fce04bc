import { strict as assert } from 'node:assert';
import type { BdsService } from '../../../plugins/bds/bds-service.js';
import { forEachDatabase } from '../../support/databases.js';
import { openService, q, waitIndexed } from './support/bds-harness.js';
import { senderOf, SyntheticChain } from './support/synthetic-chain.js';

const HEIGHT = 12;

/** Every Transfer the synthetic chain emitted (successful transactions only), in emission order. */
function emittedTransfers(chain: SyntheticChain): Array<{ hash: string; from: string; to: string; amount: string }> {
  const out = [];
  for (let h = 1; h <= HEIGHT; h++) {
    for (const tx of chain.payload(h).transactions) {
      for (const e of ((tx.tx_result as any).events ?? []) as any[]) {
        if (e.event === 'Transfer') out.push({ hash: String((tx.tx_result as any).hash), from: e.data_indexed.from, to: e.data_indexed.to, amount: String(e.data.amount) });
      }
    }
  }
  return out;
}

/** Walks a newest-first listing with its before_id cursor until the last page. */
async function walk(service: BdsService, base: string, limit: number): Promise<any[]> {
  const all: any[] = [];
  let cursor = '';
  for (let guard = 0; guard < 100; guard++) {
    const page = await q(service, `${base}/limit=${limit}${cursor}`);
    all.push(...page.items);
    if (page.next_before_id === null) return all;
    cursor = `/before_id=${page.next_before_id}`;
  }
  throw new Error('the cursor never ended');
}

describe('BDS query paths for the explorer (transfers, contract events, holders, creators)', function () {
  forEachDatabase((target) => {
    let service: BdsService;
    let chain: SyntheticChain;

    before(async function () {
      this.timeout(120_000);
      chain = new SyntheticChain({ txsPerBlock: 4, senders: 5 });
      chain.mine(HEIGHT);
      service = await openService(target.fresh({ suite: true }), chain);
      await service.prepare();
      service.start();
      await waitIndexed(service, HEIGHT);
    });
    after(async () => service?.stop());

    it('/transfers lists transfers into and out of an address, newest first, exact amounts, with a before_id cursor', async function () {
      const address = senderOf(1);
      const expected = emittedTransfers(chain).filter((t) => t.from === address || t.to === address).reverse();
      assert.ok(expected.some((t) => t.from === address) && expected.some((t) => t.to === address), 'the fixture has both directions');
      const first = await q(service, `/transfers/${address}/limit=1000`);
      assert.equal(first.next_before_id, null);
      assert.deepEqual(first.items.map((t: any) => [t.tx_hash, t.sender, t.recipient, t.amount]), expected.map((t) => [t.hash, t.from, t.to, t.amount]));
      for (const t of first.items) {
        assert.equal(t.direction, t.sender === address ? (t.recipient === address ? 'self' : 'out') : 'in');
        assert.equal(t.success, true);
        assert.equal(t.contract, 'currency');
        assert.equal(t.name, 'Native', 'the token name from <contract>.metadata:token_name');
        assert.match(t.created_at, /^2026-01-01T/);
      }
      const ids = first.items.map((t: any) => Number(t.id));
      assert.deepEqual(ids, [...ids].sort((a, b) => b - a));
      assert.deepEqual(await walk(service, `/transfers/${address}`, 3), first.items, 'the cursor walks the same rows');
      assert.deepEqual((await q(service, `/transfers/nobody/limit=10`)).items, []);
    });

    it('/contract_events filters by event names and an indexed field, newest first, with a before_id cursor', async function () {
      const to = senderOf(2);
      const all = await q(service, `/contract_events/currency/limit=1000/events=Transfer/match=to:${to}`);
      const expected = emittedTransfers(chain).filter((t) => t.to === to).reverse();
      assert.deepEqual(all.items.map((e: any) => e.tx_hash), expected.map((t) => t.hash));
      assert.ok(all.items.every((e: any) => e.event === 'Transfer' && e.data_indexed.to === to));
      assert.deepEqual(await walk(service, `/contract_events/currency/events=Transfer/match=to:${to}`, 2), all.items);
      assert.deepEqual((await q(service, '/contract_events/currency/limit=5/events=Approve')).items, []);
      await assert.rejects(() => q(service, '/contract_events/currency/before_id=x'), /before_id must be an integer/);
      await assert.rejects(() => q(service, '/contract_events/currency/match=nocolon'), /match must be <indexed field>:<value>/);
      await assert.rejects(() => q(service, '/contract_events/currency/events=a;b'), /events must be up to 20 comma-separated event names/);
    });

    it('/token_holders ranks positive balances, counts holders and sums them exactly', async function () {
      const token = await q(service, '/token_holders/con_token/limit=10/offset=0');
      assert.deepEqual(token.items.map((h: any) => [h.address, h.balance]), [[senderOf(0), '1000000']], 'the zero balance is not a holder');
      assert.equal(token.holders, 1);
      assert.equal(token.indexed_supply, '1000000');
      const currency = await q(service, '/token_holders/currency/limit=100/offset=0');
      const balances = currency.items.map((h: any) => Number(h.balance));
      assert.deepEqual(balances, [...balances].sort((a, b) => b - a));
      assert.equal(currency.holders, currency.items.length);
      assert.ok(currency.items.some((h: any) => h.address === 'dev_key' && /\.25$/.test(h.balance)), 'decimals stay exact');
      const second = await q(service, '/token_holders/currency/limit=1/offset=1');
      assert.deepEqual(second.items, [currency.items[1]]);
      assert.deepEqual((await q(service, '/token_holders/con%token/limit=10/offset=0')).items, [], 'LIKE wildcards in the name are literal');
    });

    it('/search finds transactions, blocks and addresses by hash prefix, and tokens by symbol or name (any case)', async function () {
      const tx = (await q(service, '/txs_for_block/3'))[0];
      const hash = String(tx.tx_hash);
      const unique = await q(service, `/search/${hash.slice(0, 16).toLowerCase()}/limit=10`);
      assert.deepEqual(unique.items.filter((m: any) => m.kind === 'tx').map((m: any) => m.id), [hash]);
      const block = await q(service, '/block/4');
      const byBlock = await q(service, `/search/${String(block.block_hash).slice(0, 12)}/limit=10`);
      assert.deepEqual(byBlock.items.filter((m: any) => m.kind === 'block').map((m: any) => [m.id, Number(m.block_height)]), [[block.block_hash, 4]]);
      const all = await q(service, `/search/${hash.slice(0, 4)}/limit=50`);
      assert.ok(all.items.some((m: any) => m.id === hash), 'a short prefix lists every match, the hash among them');
      assert.ok(all.items.every((m: any) => String(m.id).toUpperCase().startsWith(hash.slice(0, 4))), 'only matches');
      const token = await q(service, '/search/tkn2/limit=10');
      assert.deepEqual(token.items.map((m: any) => [m.kind, m.id, m.symbol, m.exact]), [['token', 'con_token', 'TKN2', true]], 'the patched symbol, any case');
      assert.deepEqual((await q(service, '/search/Tok/limit=10')).items.map((m: any) => [m.id, m.exact]), [['con_token', false]], 'a name prefix');
      assert.deepEqual((await q(service, '/search/zzzz/limit=10')).items, []);
      assert.deepEqual((await q(service, '/search/T%25/limit=10')).items, [], 'LIKE wildcards are literal');
    });

    it('/accounts lists every address that holds or received value, not only senders', async function () {
      const page = await q(service, '/accounts/limit=1000/offset=0');
      const listed = new Set(page.items.map((a: any) => a.address));
      const senders = (await q(service, '/addresses/limit=1000/offset=0')).items.map((a: any) => a.address);
      for (const s of senders) assert.ok(listed.has(s), `sender ${s} listed`);
      const dev = page.items.find((a: any) => a.address === 'dev_key');
      assert.ok(dev, 'dev_key only ever received rewards and is listed');
      assert.equal(dev.tx_count, 0);
      assert.match(dev.balance, /\.25$/, 'its exact native balance');
      const holder = page.items.find((a: any) => a.address === senderOf(0));
      assert.equal(holder.tokens_held, 1, 'senderOf(0) holds con_token');
      assert.equal(page.total, page.items.length);
      const heights = page.items.map((a: any) => a.last_block_height);
      assert.deepEqual(heights, [...heights].sort((a: number, b: number) => b - a), 'most recently active first');
      assert.deepEqual((await q(service, '/accounts/limit=2/offset=1')).items, page.items.slice(1, 3));
    });

    it('/contracts_by_creator lists the contracts an address deployed', async function () {
      const mine = await q(service, `/contracts_by_creator/${senderOf(0)}/limit=10/offset=0`);
      assert.deepEqual(mine.items.map((c: any) => [c.name, c.submitted_at_block, c.xsc001]), [['con_token', 2, true]]);
      assert.deepEqual((await q(service, `/contracts_by_creator/${senderOf(3)}/limit=10/offset=0`)).items, []);
    });
  });
});
