import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';
import { request } from '../../support/test-host.js';
import { LEDGER_SOURCE } from '../../support/ledger-contract.js';
import { bootDashboardHost, callContract, RELAXED_LIMITS, transfer, type DashboardHost } from './support/dashboard-host.js';

/** Page text without tags (entities as the page has them). */
const textOf = (page: string) => page.replace(/<style>[\s\S]*?<\/style>/, '').replace(/<[^>]+>/g, '');
/** Text with the entities highlight.js and the page templates write decoded. */
const decode = (text: string) => text.replace(/&(#39|#x27|quot|lt|gt|amp);/g, (_m, e: string) => ({ '#39': "'", '#x27': "'", quot: '"', lt: '<', gt: '>', amp: '&' })[e]!);
/** The markup of `<h2>title</h2>` up to the next `<h2>`. */
const section = (page: string, title: RegExp) => {
  const start = page.search(title);
  assert.ok(start >= 0, `no section ${title}`);
  const end = page.indexOf('<h2', start + 4);
  return page.slice(start, end < 0 ? undefined : end);
};

/**
 * Issue #40 item 6, on a busy devnet (devnet + BDS + wallet + DEX + dashboard): a user contract
 * deployed from source, an approval, two deposits (a cross-contract `currency.transfer_from`),
 * a deposit that fails, a deployment that fails, token transfers; the genesis DEX pairs. The deploy page shows the source, not
 * IR JSON; the contract page shows current state and its real last transaction; event data is a
 * table with short linked addresses; and no link the explorer emits answers 4xx or 5xx.
 */
describe('explorer: deployments, contract state and links on a busy devnet', function () {
  this.timeout(300_000);
  let h: DashboardHost;
  let deploy: { hash: string; height: string };
  let deposits: Array<{ hash: string; height: string }>;
  let failed: { hash: string; height: string };
  let failedDeploy: { hash: string; height: string };
  let missingCall: { hash: string; height: string };
  const dev = () => h.accounts[0]!.address;

  async function indexed(): Promise<void> {
    const height = Number((await request(h.url('/api/status'))).json.sync_info.latest_block_height);
    const started = Date.now();
    for (;;) {
      const res = await request(h.url('/api/abci_query/bds_status'));
      if (Number(res.json?.response?.value?.indexed?.indexed_height ?? 0) >= height) return;
      if (Date.now() - started > 60_000) throw new Error(`BDS did not index height ${height}: ${res.text.slice(0, 300)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  before(async () => {
    h = await bootDashboardHost({ plugins: { bds: {}, wallet: {}, dex: {} }, dashboard: RELAXED_LIMITS });
    deploy = await callContract(h, { contract: 'submission', function: 'submit_contract', kwargs: { name: 'con_ledger', code: LEDGER_SOURCE, constructor_args: { name: 'Ledger', bps: 25 } } }, 0);
    await callContract(h, { contract: 'currency', function: 'approve', kwargs: { amount: 1000, to: 'con_ledger' } }, 0);
    deposits = [
      await callContract(h, { contract: 'con_ledger', function: 'deposit', kwargs: { tag: 'rent', amount: 5 } }, 0),
      await callContract(h, { contract: 'con_ledger', function: 'deposit', kwargs: { tag: 'food', amount: 7 } }, 0),
    ];
    failed = await callContract(h, { contract: 'con_ledger', function: 'deposit', kwargs: { tag: 'food', amount: -1 } }, 0);
    // A deployment that fails in execution (its constructor asserts nothing, but `name` is missing).
    failedDeploy = await callContract(h, { contract: 'submission', function: 'submit_contract', kwargs: { name: 'con_broken', code: LEDGER_SOURCE, constructor_args: {} } }, 2);
    // A call to a contract that does not exist (it fails in the block).
    missingCall = await callContract(h, { contract: 'con_missing', function: 'f', kwargs: {} }, 2);
    // A token transfer (XSC001 events on another contract); DEX swaps are driven through the wallet in explorer-views.test.ts.
    await callContract(h, { contract: 'con_test_token', function: 'transfer', kwargs: { amount: 2, to: h.accounts[4]!.address } }, 0);
    await transfer(h, h.accounts[3]!.address, 3, 1);
    await indexed();
  });
  after(async () => h?.stop());

  it('the deploy page shows the source highlighted with line numbers, and the IR only collapsed and as a download', async () => {
    const res = await request(h.url(`/explorer/tx/${deploy.hash}`));
    assert.equal(res.status, 200);
    const page = res.text;
    const stored = (await request(h.url('/api/contract/con_ledger'))).json.source as string;
    const listing = /<pre class="source numbered"[^>]*><code class="language-python">([\s\S]*?)<\/code><\/pre>/.exec(page);
    assert.ok(listing, 'a numbered source listing');
    assert.equal((listing[1]!.match(/<span class="ln">/g) ?? []).length, stored.split('\n').length, 'one numbered row per source line');
    assert.ok(/class="hljs-keyword"/.test(listing[1]!), 'highlighted');
    assert.equal(decode(textOf(listing[1]!)), stored + '\n', 'the stored source, line by line');
    // The IR: inside a closed <details>, nowhere else; the state-change row and the arguments summarise.
    const outsideDetails = page.replace(/<details[\s\S]*?<\/details>/g, '');
    assert.ok(!outsideDetails.includes('&quot;ir_version&quot;'), 'no IR JSON outside a <details>');
    assert.match(page, /<details><summary>Compiled IR \([0-9.]+ KB\)<\/summary><pre[^>]*>\{\n {2}&quot;/);
    const args = /<dt>Arguments<\/dt><dd><pre[^>]*>([\s\S]*?)<\/pre>/.exec(page)?.[1] ?? '';
    assert.match(args, /&quot;code&quot;: &quot;\(\d+ lines of source, shown above\)&quot;/, 'the source is not repeated as a JSON string in the arguments');
    assert.match(args, /&quot;bps&quot;: 25/);
    assert.match(textOf(section(page, /<h2>State changes/)), /con_ledger\.__source__the contract source \(\d+ lines/);
    // What shows before anything is opened: the facts, the source, the state changes — not the IR (15 KB here) or the raw result.
    assert.ok(textOf(outsideDetails).length < 6_000, `the page shows ${textOf(outsideDetails).length} characters before a <details> is opened`);

    const link = new RegExp(`href="(/explorer/tx/${deploy.hash}/ir/con_ledger)"`).exec(page);
    assert.ok(link, 'a download link for the IR');
    const file = await request(h.url(link[1]!));
    assert.equal(file.status, 200);
    assert.match(String(file.headers['content-type']), /^application\/json/);
    assert.equal(file.headers['content-disposition'], `attachment; filename="con_ledger-${deploy.hash.slice(0, 12).toLowerCase()}.ir.json"`);
    const ir = (await request(h.url('/api/abci_query/contract_ir/con_ledger'))).json.response.value;
    assert.deepStrictEqual(file.json, JSON.parse(ir), 'the IR the contract stored');
    const current = await request(h.url('/explorer/contract/con_ledger/ir'));
    assert.equal(current.headers['content-disposition'], 'attachment; filename="con_ledger.ir.json"');
    assert.deepStrictEqual(current.json, JSON.parse(ir));
    assert.equal((await request(h.url(`/explorer/tx/${deposits[0]!.hash}/ir/con_ledger`))).status, 404, 'a tx that deployed nothing has no IR');
    assert.equal((await request(h.url('/explorer/contract/con_nothing/ir'))).status, 404);
    assert.equal((await request(h.url(`/explorer/tx/${deploy.hash}/ir/a%2Fb`))).status, 400);
  });

  it('a failed deployment shows the submitted source and links no contract that does not exist', async () => {
    const res = await request(h.url(`/explorer/tx/${failedDeploy.hash}`));
    assert.equal(res.status, 200);
    assert.match(textOf(res.text), /Submitted contract con_broken/);
    assert.match(textOf(res.text), /No IR was stored: the deployment did not complete/);
    assert.ok(!res.text.includes('href="/explorer/contract/con_broken"'));
    assert.match(res.text, /<span class="fail">Fail<\/span>/);
  });

  it('the contract page shows variable values, hash entries with keys, the real last transaction and events as tables', async () => {
    const res = await request(h.url('/explorer/contract/con_ledger'));
    assert.equal(res.status, 200);
    const page = res.text;
    const variables = textOf(section(page, /<h2>Variables/));
    assert.match(variables, /ledger_nameLedger/);
    assert.match(variables, /fee_bps25/);
    const hashes = section(page, /<h2>Hashes/);
    const short = `${dev().slice(0, 10)}…${dev().slice(-6)}`;
    // Keys in byte order: food before rent; each address part a short link to its account page.
    assert.match(textOf(hashes), new RegExp(`${short} : food7\\s*${short} : rent5`));
    assert.ok(hashes.includes(`href="/explorer/address/${dev()}"`));
    const facts = textOf(section(page, /<h1>/));
    assert.match(facts, new RegExp(`Deployed by${deploy.hash.slice(0, 10)}`));
    assert.match(facts, new RegExp(`Last transaction${failed.hash.slice(0, 10)}`), 'the failed deposit, the newest call');
    const events = section(page, /<h2>Recent events/);
    assert.match(events, /<table class="fields"><tr><th scope="row">account<\/th><td><a class="mono" href="\/explorer\/address\/[0-9a-f]{64}"/);
    assert.ok(!/[0-9a-f]{64}/.test(textOf(events)), 'no 64-hex address in the visible event text');
    assert.match(textOf(events), /tagfood\s*amount7/);
    assert.ok(page.includes('href="/explorer/contract/con_ledger/ir"'));

    // currency: genesis-deployed (links to block 0), last touched by a deposit's inner transfer_from — newer than any direct call.
    const currency = (await request(h.url('/explorer/contract/currency'))).text;
    assert.ok(!currency.includes('/explorer/tx/GENESIS'));
    assert.match(textOf(section(currency, /<h1>/)), /Deployed bygenesis/);
    assert.ok(section(currency, /<h1>/).includes('href="/explorer/block/0"'));
    const lastHref = /<dt>Last transaction<\/dt><dd><a class="mono" href="\/explorer\/tx\/([0-9A-F]{64})"/.exec(currency)?.[1];
    assert.ok(lastHref);
    const newest = Number((await request(h.url(`/api/tx/${lastHref}`))).json.height);
    assert.ok(newest >= Number(deposits[1]!.height), `currency's last transaction is at height ${newest}, not before the last deposit (${deposits[1]!.height})`);
  });

  it('a hash is paged by its /keys cursor, 50 entries at a time, and a bad cursor or name is a 400', async () => {
    const first = await request(h.url('/explorer/contract/currency/hash/balances'));
    assert.equal(first.status, 200);
    const keys = (await request(h.url('/api/abci_query/keys/currency.balances:/limit=200'))).json.response.value.items as string[];
    const rows = (first.text.match(/<tr><td class="wrap">/g) ?? []).length;
    assert.equal(rows, Math.min(50, keys.length));
    if (keys.length > 50) {
      const next = /href="(\/explorer\/contract\/currency\/hash\/balances\?after=[^"]+)"/.exec(first.text);
      assert.ok(next, 'a next-page link');
      const second = await request(h.url(next[1]!.replace(/&amp;/g, '&')));
      assert.equal(second.status, 200);
      assert.ok(textOf(second.text).includes(keys[50]!.slice(0, 10)));
    }
    // The contract page previews 10 entries of each hash and links the rest.
    const preview = (await request(h.url('/explorer/contract/currency'))).text;
    assert.equal((textOf(section(preview, /<h2>Hashes/)).match(/All entries of balances/g) ?? []).length, keys.length > 10 ? 1 : 0);
    for (const bad of ['/explorer/contract/currency/hash/bal-ances', `/explorer/contract/currency/hash/balances?after=a%2Fb`, `/explorer/contract/currency/hash/balances?after=${'x'.repeat(1100)}`]) {
      const res = await request(h.url(bad));
      assert.equal(res.status, 400, bad);
      assert.match(textOf(res.text), /must be/);
    }
  });

  it('GENESIS as a transaction hash redirects to the genesis block', async () => {
    const res = await request(h.url('/explorer/tx/GENESIS'));
    assert.equal(res.status, 302);
    assert.equal(res.headers.location, '/explorer/block/0');
  });

  it('every link the explorer emits answers 2xx or 3xx (a bounded crawl from /explorer)', async () => {
    const MAX_PAGES = 300;
    const PER_ROUTE = 12;
    /** A link's route: ids folded — at most PER_ROUTE pages of each kind are read for more links. */
    const routeOf = (link: string) => {
      const [path, query = ''] = link.split('?');
      const keys = [...new URLSearchParams(query).keys()].sort().join('&');
      return `${path!.replace(/^(\/explorer\/(?:block|tx|address|token|contract|dex\/pair))\/[^/]+/, '$1/*')}?${keys}`;
    };
    const status = new Map<string, number>();
    const failures: string[] = [];
    const perRoute = new Map<string, number>();
    const queue = ['/explorer', `/explorer/tx/${deploy.hash}`, '/explorer/contract/con_ledger', '/explorer/contract/currency', `/explorer/tx/${failed.hash}`, `/explorer/tx/${failedDeploy.hash}`, `/explorer/tx/${missingCall.hash}`];
    let read = 0;
    const check = async (link: string, from: string) => {
      if (status.has(link)) return status.get(link)!;
      let res = await request(h.url(link));
      status.set(link, res.status);
      if (res.status >= 300 && res.status < 400 && res.headers.location) {
        res = await request(h.url(res.headers.location));
        if (res.status >= 400) failures.push(`${link} (on ${from}) → redirect → ${res.headers.location} → ${res.status}`);
      }
      if (res.status >= 400) failures.push(`${link} (on ${from}) → ${res.status}`);
      return res.status;
    };
    while (queue.length && read < MAX_PAGES) {
      const url = queue.shift()!;
      const res = await request(h.url(url));
      read++;
      if (res.status >= 400) failures.push(`${url} → ${res.status}`);
      if (!String(res.headers['content-type']).startsWith('text/html')) continue;
      for (const m of res.text.matchAll(/href="([^"#]+)"/g)) {
        const link = m[1]!.replace(/&amp;/g, '&');
        if (link.startsWith('data:')) continue;
        assert.ok(link.startsWith('/'), `an explorer link leaves the server: ${link} on ${url}`);
        const known = status.has(link);
        await check(link, url);
        const route = routeOf(link);
        if (known || (perRoute.get(route) ?? 0) >= PER_ROUTE || /\/ir(\/|$)/.test(link)) continue;
        perRoute.set(route, (perRoute.get(route) ?? 0) + 1);
        queue.push(link);
      }
    }
    assert.ok(read > 60, `read ${read} pages`);
    assert.ok(status.size > 150, `checked ${status.size} links`);
    for (const kind of ['/explorer/tx/', '/explorer/contract/currency/hash/balances?after=', '/explorer/contract/con_ledger/ir', '/explorer/block/0', '/explorer/dex/pair/', '/explorer/token/']) {
      assert.ok([...status.keys()].some((l) => l.startsWith(kind)), `the crawl met a ${kind} link`);
    }
    assert.deepEqual(failures, []);
  });

  it('the new pages pass an axe-core check (Chromium, as explorer-views.test.ts): a deploy, a failed deploy, two contracts, a hash page', async function () {
    const CHROMIUM = '/usr/bin/chromium';
    if (!existsSync(CHROMIUM)) {
      if (process.env.CHAIN_TEST_REQUIRE_CHROMIUM === '1') throw new Error(`${CHROMIUM} is missing and CHAIN_TEST_REQUIRE_CHROMIUM=1`);
      this.skip();
    }
    const axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'] });
    const found: string[] = [];
    try {
      // The injected checker is an inline script: this context alone bypasses the CSP to run it.
      const page = await (await browser.newContext({ javaScriptEnabled: true, bypassCSP: true })).newPage();
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: 900 });
        for (const url of [`/explorer/tx/${deploy.hash}`, `/explorer/tx/${failedDeploy.hash}`, '/explorer/contract/con_ledger', '/explorer/contract/currency', '/explorer/contract/currency/hash/balances']) {
          assert.equal((await page.goto(h.url(url)))!.status(), 200, url);
          await page.addScriptTag({ content: axeSource });
          const result = await page.evaluate(() => (window as any).axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'best-practice'] } }));
          for (const v of result.violations) found.push(`${url} at ${width}px: ${v.id} (${v.nodes.length}): ${v.nodes.slice(0, 2).map((n: any) => n.target.join(' ')).join(' | ')}`);
          const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth'));
          if (overflow > 0) found.push(`${url} at ${width}px: the page scrolls sideways by ${overflow}px`);
        }
      }
    } finally {
      await browser.close();
    }
    assert.deepEqual(found, []);
  });
});
