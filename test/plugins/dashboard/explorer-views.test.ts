import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';
import { REPO_ROOT, request } from '../../support/test-host.js';
import { amount as amountText } from '../../../plugins/dashboard/explorer/format.js';
import { bootDashboardHost, callContract, RELAXED_LIMITS, transfer, type DashboardHost } from './support/dashboard-host.js';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const ARTIFACTS = path.join(REPO_ROOT, 'test/artifacts');
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 812 };

/**
 * The explorer after the examples' DEX flow (the full example's plugin set: devnet, bds, wallet,
 * dex, dashboard; a swap, liquidity added, a helper sell, a transfer), driven in Chromium:
 * navigation home → block → tx → address → token → pair without JavaScript, the charts with
 * one point per block / candle, exact values, the live update over /ws with JavaScript on, an
 * axe-core accessibility check, and screenshots at desktop and phone width in test/artifacts/.
 */
describe('explorer views over the DEX flow (Chromium)', function () {
  this.timeout(300_000);
  let h: DashboardHost;
  let browser: Browser;
  let page: Page;
  /** The trader's currency transfer after the DEX flow. */
  let received: { hash: string; height: string };
  /** The first swap (42.5 currency for TST), a TST transfer of 12.5, and a TST transfer that fails (more than the sender holds). */
  let swapTx: string;
  let tokenTransfer: { hash: string; height: string };
  let failed: { hash: string; height: string };
  const tool = async (name: string, args: Record<string, unknown>): Promise<any> => h.host.invoker.call(name, args, 'in-process');
  const trader = () => h.accounts[1]!;

  async function indexed(height: number): Promise<void> {
    const started = Date.now();
    for (;;) {
      const res = await request(h.url('/api/abci_query/bds_status'));
      if (Number(res.json?.response?.value?.indexed?.indexed_height ?? 0) >= height) return;
      if (Date.now() - started > 60_000) throw new Error(`BDS did not index height ${height}: ${res.text.slice(0, 300)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async function latestHeight(): Promise<number> {
    return Number((await request(h.url('/api/status'))).json.sync_info.latest_block_height);
  }

  async function shoot(name: string): Promise<void> {
    await mkdir(ARTIFACTS, { recursive: true });
    const viewport = page.viewportSize()!;
    for (const [label, size] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
      await page.setViewportSize(size);
      await page.screenshot({ path: path.join(ARTIFACTS, `explorer-${name}-${label}.png`), fullPage: true });
    }
    await page.setViewportSize(viewport);
  }

  before(async function () {
    if (!existsSync(CHROMIUM)) {
      if (process.env.CHAIN_TEST_REQUIRE_CHROMIUM === '1') throw new Error(`${CHROMIUM} is missing and CHAIN_TEST_REQUIRE_CHROMIUM=1`);
      console.log(`  ${CHROMIUM} not installed (apt-get install chromium): headless explorer tests SKIPPED`);
      this.skip();
    }
    // The DEX tools dry-run every call; the node's 3 s dry-run deadline catches hangs, and a cold worker on a loaded machine can need more.
    h = await bootDashboardHost({ plugins: { bds: {}, wallet: {}, dex: {} }, dashboard: RELAXED_LIMITS, config: { tools: { unsafe: true } }, nodeConfig: { simulation_timeout_ms: 30_000 } });
    const t = trader();
    // The DEX flow: plan and submit a swap, add liquidity, sell through the helper.
    const swap = await tool('dex_plan_swap', { token_in: 'currency', token_out: 'con_test_token', amount: '42.5', account: t.address, recipient: t.address });
    swapTx = (await tool('dex_submit_swap', { private_key: t.privateKey, plan_id: swap.plan_id })).final_transaction.tx_hash;
    const add = await tool('dex_plan_add_liquidity', { token_a: 'currency', token_b: 'con_test_token', amount_a_desired: '100', amount_b_desired: '100', account: t.address, recipient: t.address });
    await tool('dex_submit_add_liquidity', { private_key: t.privateKey, plan_id: add.plan_id });
    await tool('sell_on_dex', { private_key: t.privateKey, sell_token: 'con_test_token', amount: '3.25' });
    received = await transfer(h, h.accounts[3]!.address, 7, 1);
    tokenTransfer = await callContract(h, { contract: 'con_test_token', function: 'transfer', kwargs: { amount: { __fixed__: '12.5' }, to: h.accounts[4]!.address } }, 1);
    failed = await callContract(h, { contract: 'con_test_token', function: 'transfer', kwargs: { amount: 999_999_999_999, to: h.accounts[4]!.address } }, 5);
    await indexed(await latestHeight());
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });
  beforeEach(async () => {
    page = await (await browser.newContext({ javaScriptEnabled: false, viewport: DESKTOP })).newPage();
  });
  afterEach(async () => {
    await page?.context().close();
  });
  after(async () => {
    await browser?.close();
    await h?.stop();
  });

  it('home → block → tx → address → token → pair, each with real data and exact values (no JavaScript)', async () => {
    const home = await page.goto(h.url('/explorer'));
    assert.equal(home!.status(), 200);
    const blockRows = await page.locator('#latest-blocks tbody tr').count();
    assert.ok(blockRows >= 5, `blocks listed: ${blockRows}`);
    assert.equal(await page.locator('figure.chart svg [data-point="bar"]').count(), blockRows, 'one bar per listed block');
    assert.equal(await page.locator('figure.chart svg [data-point="line"]').count(), blockRows, 'one chi point per listed block');
    assert.ok(await page.locator(`#latest-txs tr[data-tx="${received.hash}"]`).count() === 1, 'the transfer is among the latest transactions');
    await shoot('home');

    await page.click(`#latest-blocks a[href="/explorer/block/${received.height}"]`);
    assert.match(await page.locator('h1').innerText(), new RegExp(`Block ${received.height}`));
    await shoot('block');
    await page.click(`a[href="/explorer/tx/${received.hash}"]`);
    assert.equal(await page.locator('h1').innerText(), 'Transaction');
    await shoot('tx');

    const t = trader();
    await page.locator(`a[href="/explorer/address/${t.address}"]`).first().click();
    const main = await page.locator('main').innerText();
    const balance = (await request(h.url(`/api/abci_query/get/currency.balances:${t.address}`))).json.response.value;
    assert.ok(await page.locator(`main [data-exact="${balance}"]`).count() >= 1, `the exact currency balance ${balance}`);
    const tst = (await request(h.url(`/api/abci_query/get/con_test_token.balances:${t.address}`))).json.response.value;
    const holdings = await page.locator('h2:has-text("Token holdings") + .card').innerText();
    assert.match(holdings, /Test Token[\s\S]*TST/);
    assert.equal(await page.locator(`h2:has-text("Token holdings") + .card [data-exact="${tst}"]`).count(), 1, `the exact con_test_token balance ${tst} in ${holdings}`);
    const transfers = await page.locator('h2:has-text("Transfers in and out") + .card').innerText();
    assert.match(transfers, /^Out\s+c?\w+…\w+\s+7\s+CHAIN/m, 'the transfer sent, with its amount and symbol');
    assert.match(transfers, /^Out\s+con_pairs\s+42\.5\s+CHAIN/m, 'the swap input sent out');
    assert.match(transfers, /^In\s+con_pairs\s+[0-9.]+\s+TST/m, 'the swap output received');
    assert.ok(await page.locator(`h2:has-text("Transfers in and out") + .card time[datetime][title$=" UTC"]`).count() >= 3, "each transfer with its UTC time on hover");
    assert.ok(await page.locator(`a[href="/explorer/state?key=currency.balances%3A${t.address}"]`).count() >= 1, 'a link to the raw state key');
    await shoot('address');

    await page.locator('h2:has-text("Token holdings") + .card a[href="/explorer/token/con_test_token"]').click();
    assert.match(await page.locator('h1').innerText(), /Test Token \(TST\)/);
    const token = await page.locator('main').innerText();
    assert.match(token, /Top holders[\s\S]*con_pairs/, 'the pair contract holds TST');
    assert.match(token, /Recent transfers[\s\S]*3\.25/, 'the helper sell moved exactly 3.25 TST');
    await shoot('token');

    const pairLink = page.locator('h2:has-text("DEX markets") + .card a').first();
    const pairHref = (await pairLink.getAttribute('href'))!;
    const pairId = Number(/\/explorer\/dex\/pair\/(\d+)/.exec(pairHref)![1]);
    await pairLink.click();
    assert.match(await page.locator('h1').innerText(), new RegExp(`pair #${pairId}`));
    const candles = (await request(h.url(`/api/abci_query/dex_candles/${pairId}/interval=15m/limit=60`))).json.response.value.items;
    assert.ok(candles.length >= 1);
    assert.equal(await page.locator('figure.chart svg [data-point="candle"]').count(), candles.length, 'one candle per /dex_candles bucket');
    const pairText = await page.locator('main').innerText();
    assert.match(pairText, /Recent swaps[\s\S]*42\.5 currency/, 'the swap with its exact input');
    assert.match(pairText, /Liquidity events[\s\S]*Add/);
    const reserve0 = (await request(h.url(`/api/abci_query/get/con_pairs.pairs:${pairId}:reserve0`))).json.response.value;
    assert.ok(await page.locator(`main [data-exact="${amountText(reserve0)}"]`).count() >= 1, `reserve0 ${reserve0}`);
    await shoot('pair');

    await page.click(`.intervals a[href="/explorer/dex/pair/${pairId}?interval=1m"]`);
    const oneMinute = (await request(h.url(`/api/abci_query/dex_candles/${pairId}/interval=1m/limit=60`))).json.response.value.items;
    assert.equal(await page.locator('figure.chart svg [data-point="candle"]').count(), oneMinute.length);
    assert.equal(await page.locator('.intervals [aria-current]').innerText(), '1m');

    await page.goto(h.url('/explorer/dex'));
    assert.match(await page.locator('main').innerText(), /con_test_token[\s\S]*trades/, 'the pair list shows the 24 h volume');
    await shoot('dex');
    await page.goto(h.url('/explorer/contract/con_test_token'));
    assert.ok(await page.locator('pre.source .hljs-keyword').count() > 0, 'the source is highlighted on the server');
    assert.match(await page.locator('h2:has-text("Recent calls") + .card').innerText(), /approve[\s\S]*OK/);
    await shoot('contract');
  });

  it('the latest blocks and transactions update live over /ws within one block (JavaScript on, strict CSP kept)', async () => {
    const context = await browser.newContext({ javaScriptEnabled: true, viewport: DESKTOP });
    const live = await context.newPage();
    const problems: string[] = [];
    live.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
    live.on('pageerror', (e) => problems.push(e.message));
    try {
      const res = await live.goto(h.url('/explorer'));
      assert.match(String(res!.headers()['content-security-policy']), /script-src 'self'; connect-src 'self'/);
      await live.waitForFunction(() => /^Live/.test(document.getElementById('live-status')?.textContent ?? ''), null, { timeout: 10_000 });
      const before = await latestHeight();
      const sent = await transfer(h, 'live_friend', 3, 2);
      assert.equal(Number(sent.height), before + 1, 'the transfer is the next block');
      await live.waitForSelector(`#latest-txs tr[data-tx="${sent.hash}"]`, { timeout: 10_000 });
      await live.waitForSelector(`#latest-blocks tr[data-height="${sent.height}"]`, { timeout: 10_000 });
      const row = await live.locator(`#latest-txs tr[data-tx="${sent.hash}"]`).innerText();
      assert.match(row, /Transfer 3 CHAIN from \w+…\w+ to live_friend[\s\S]*currency\.transfer/, 'the new row says what happened');
      assert.match(row, /OK$/, 'and its status, not "—"');
      // The latest-block card and the chart follow the new block too.
      assert.equal(await live.locator('#latest-card [data-live="latest-height"]').innerText(), sent.height);
      assert.match(await live.locator('#activity figure.chart svg title').first().textContent() ?? '', new RegExp(`–${sent.height}$`));
      assert.equal(await live.locator('#activity [data-point="bar"]').last().locator('title').textContent(), `${sent.height}: 1 txs`);
      // Relative times tick without a reload.
      const age = live.locator(`#latest-txs tr[data-tx="${sent.hash}"] [data-ago]`);
      const first = await age.innerText();
      await live.waitForFunction((hash) => {
        const el = document.querySelector(`#latest-txs tr[data-tx="${hash}"] [data-ago]`);
        return el !== null && /^(?:[2-9]|\d\d+) s ago$|min ago/.test(el.textContent ?? '');
      }, sent.hash, { timeout: 10_000 });
      assert.notEqual(await age.innerText(), first, `the age ticked from ${first}`);
      assert.deepEqual(problems, [], 'no script or CSP errors');
    } finally {
      await context.close();
    }
  });

  it('every page passes an axe-core check (labels, contrast, landmarks) at desktop and phone width', async () => {
    const axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
    // The injected checker is an inline script: this context alone bypasses the CSP to run it.
    const context = await browser.newContext({ javaScriptEnabled: true, bypassCSP: true, viewport: DESKTOP });
    const p = await context.newPage();
    const t = trader();
    const pages = ['/explorer', `/explorer/block/${received.height}`, `/explorer/tx/${received.hash}`, `/explorer/tx/${swapTx}`, `/explorer/tx/${failed.hash}`,
      `/explorer/address/${t.address}`, '/explorer/token/con_test_token', '/explorer/tokens', '/explorer/dex', '/explorer/dex/pair/1',
      '/explorer/dex/pair/2?interval=1m', '/explorer/contract/con_test_token', '/explorer/addresses', '/explorer/block/0', '/explorer/search?q=ts'];
    const found: string[] = [];
    try {
      for (const size of [DESKTOP, PHONE]) {
        await p.setViewportSize(size);
        for (const url of pages) {
          assert.equal((await p.goto(h.url(url)))!.status(), 200, url);
          await p.addScriptTag({ content: axeSource });
          const result = await p.evaluate(() => (window as any).axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'best-practice'] } }));
          for (const v of result.violations) found.push(`${url} at ${size.width}px: ${v.id} (${v.nodes.length}): ${v.nodes.slice(0, 2).map((n: any) => n.target.join(' ')).join(' | ')}`);
        }
      }
      assert.deepEqual(found, []);
    } finally {
      await context.close();
    }
  });
  it('every transaction says what happened in words, with its fee in the native token and its block time', async () => {
    const t = trader();
    await page.goto(h.url('/explorer'));
    const row = async (hash: string) => page.locator(`#latest-txs tr[data-tx="${hash}"]`).innerText();
    assert.match(await row(tokenTransfer.hash), new RegExp(`Transfer 12\\.5 TST from ${t.address.slice(0, 10)}…\\w+ to ${h.accounts[4]!.address.slice(0, 10)}…\\w+`));
    assert.match(await row(received.hash), /Transfer 7 CHAIN from/);
    assert.match(await row(failed.hash), /Failed: Transfer 999,999,999,999 TST from \w+…\w+ to \w+…\w+ — .*Fail/s);
    const blockOf = async (height: string) => (await request(h.url(`/api/block/${height}`))).json.block.header.time as string;

    // The token transfer: the sentence, the status, the exact fee chi_used / chi_rate, the block's time.
    const res = await page.goto(h.url(`/explorer/tx/${tokenTransfer.hash}`));
    assert.equal(res!.status(), 200, await page.locator('main').innerText());
    assert.match(await page.locator('p.lead').innerText(), new RegExp(`^Transfer 12\\.5 TST from ${t.address.slice(0, 10)}`));
    const api = (await request(h.url(`/api/tx/${tokenTransfer.hash}`))).json;
    const chiUsed = api.tx_result.data_decoded.chi_used as number;
    const rate = (await request(h.url('/api/abci_query/get/chi_cost.S:value'))).json.response.value;
    const fee = await page.locator('dt:has-text("Fee") + dd').innerText();
    assert.match(fee, new RegExp(`CHAIN \\(${chiUsed} chi used of 1,000 supplied, at ${rate} chi per CHAIN\\)`));
    const exactFee = await page.locator('dt:has-text("Fee") + dd .amt').first().getAttribute('data-exact');
    assert.equal(Number(exactFee) * Number(rate), chiUsed, `fee ${exactFee} = ${chiUsed} chi / ${rate}`);
    const time = await page.locator('dt:has-text("Time") + dd time').getAttribute('datetime');
    assert.equal(time, new Date(Date.parse(await blockOf(tokenTransfer.height))).toISOString());
    assert.match(await page.locator('dt:has-text("Time") + dd').innerText(), /UTC \(\d+ (s|min) ago\)/);
    // The payload and events are one click away; the kwargs read 12.5, not {"__fixed__": "12.5"}.
    assert.equal(await page.locator('details:has(summary:has-text("Events")) table:not(.fields)').isVisible(), false);
    await page.click('summary:has-text("Events (1)")');
    assert.match(await page.locator('details:has(summary:has-text("Events")) table:not(.fields)').innerText(), /Transfer[\s\S]*"amount": ?"12\.5"|Transfer[\s\S]*12\.5/);
    await page.click('summary:has-text("Call and arguments")');
    const args = await page.locator('dt:has-text("Arguments") + dd').innerText();
    assert.match(args, /"amount": "12\.5"/);
    assert.ok(!args.includes('__fixed__'));

    await page.goto(h.url(`/explorer/tx/${swapTx}`));
    assert.match(await page.locator('p.lead').innerText(), /^Swap 42\.5 CHAIN for [0-9.,]+ TST on pair #\d+$/);
    await page.goto(h.url(`/explorer/tx/${failed.hash}`));
    assert.match(await page.locator('p.lead').innerText(), /^Failed: Transfer 999,999,999,999 TST from .* — \w+/);
    assert.match(await page.locator('dt:has-text("Status") + dd').innerText(), /Fail\s+\S+/);
    await shoot('tx-failed');

    // Block rows and the address's sent transactions say the same.
    await page.goto(h.url(`/explorer/block/${tokenTransfer.height}`));
    assert.match(await page.locator('main table').innerText(), /Transfer 12\.5 TST from/);
    await page.goto(h.url(`/explorer/address/${t.address}`));
    assert.match(await page.locator('h2:has-text("Transactions sent") + .card').innerText(), /Swap 42\.5 CHAIN for [0-9.,]+ TST on pair #\d+/);
    assert.match(await page.locator('h2:has-text("Transactions sent") + .card').innerText(), /Add liquidity: [0-9.,]+ \w+ and [0-9.,]+ \w+ to pair #\d+/);
  });

  it('amounts show sensible digits with the exact value on hover and on copy', async () => {
    const t = trader();
    const context = await browser.newContext({ javaScriptEnabled: true, viewport: DESKTOP, permissions: ['clipboard-read', 'clipboard-write'] });
    const p = await context.newPage();
    try {
      await p.goto(h.url(`/explorer/address/${t.address}`));
      const balance = String((await request(h.url(`/api/abci_query/get/currency.balances:${t.address}`))).json.response.value);
      assert.ok(balance.split('.')[1]!.length > 10, `a balance with many decimals: ${balance}`);
      const cell = p.locator(`dd .amt[data-exact="${balance}"]`);
      assert.equal(await cell.getAttribute('title'), balance, 'exact on hover');
      const shown = await cell.innerText();
      assert.match(shown, /^[0-9,]+\.\d{1,2}$/, `readable: ${shown}`);
      await cell.selectText();
      // A listener after the explorer's own reads what it put on the clipboard (a string: tsx-compiled functions do not survive evaluate).
      const copied = await p.evaluate(`(() => {
        let data = '';
        const listener = (e) => { data = e.clipboardData.getData('text/plain'); };
        document.addEventListener('copy', listener);
        document.execCommand('copy');
        document.removeEventListener('copy', listener);
        return data;
      })()`);
      assert.equal(copied, balance, 'exact on copy');
      const longest = await p.evaluate(() => Math.max(...Array.from(document.querySelectorAll("main .amt")).map((e) => (e.textContent ?? '').length)));
      assert.ok(longest <= 20, `no 30-digit numbers on the page (longest ${longest})`);
    } finally {
      await context.close();
    }
  });

  it('the price chart has a true time axis, wicks, readable labels and volume, and fits a phone', async () => {
    const candles = (await request(h.url('/api/abci_query/dex_candles/2/interval=1m/limit=60'))).json.response.value.items;
    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      await page.goto(h.url('/explorer/dex/pair/2?interval=1m'));
      const drawn = await page.locator('figure.candle-chart [data-point="candle"]').evaluateAll((gs) => gs.map((g) => ({ start: Number(g.getAttribute('data-start')), slot: Number(g.getAttribute('data-slot')) })));
      assert.equal(drawn.length, candles.length);
      for (let i = 1; i < drawn.length; i++) assert.equal(drawn[i]!.slot - drawn[i - 1]!.slot, (drawn[i]!.start - drawn[i - 1]!.start) / 60, 'one slot per minute, empty minutes kept');
      assert.equal(Math.max(...drawn.map((d) => d.slot)), 59, 'the window ends at the newest candle');
      assert.equal(await page.locator('figure.candle-chart [data-tick]').count(), 4, 'four time labels');
      const labels = await page.locator('figure.candle-chart svg.y-labels text:not(.muted-label)').evaluateAll((ts) => ts.map((t) => t.textContent ?? ''));
      assert.ok(labels.length >= 3 && labels.every((l) => l.length <= 9), `readable price labels: ${labels}`);
      assert.equal(await page.locator('figure.candle-chart .volume').count(), candles.length);
      const box = await page.locator('figure.candle-chart svg.plot').boundingBox();
      assert.ok(box!.x + box!.width <= size.width, `the chart ends inside the ${size.width} px viewport (${box!.x + box!.width})`);
      const overflow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
      assert.ok(Number(overflow) <= 0, `no sideways page scroll at ${size.width} px (${overflow})`);
    }
    await page.setViewportSize(DESKTOP);
    await shoot('pair-1m');
  });

  it('search finds a token by symbol, a transaction by hash prefix, and says plainly when nothing matches', async () => {
    const search = async (q: string) => page.goto(h.url(`/explorer/search?q=${encodeURIComponent(q)}`));
    await search('TST');
    assert.match(page.url(), /\/explorer\/token\/con_test_token$/);
    assert.equal((await search('ts'))!.status(), 200, 'ambiguous: TST and TST-LP start with it');
    assert.match(await page.locator('h1').innerText(), /^2 matches for ts$/);
    assert.deepEqual((await page.locator('main table a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).sort(), ['/explorer/token/con_lp_test_token', '/explorer/token/con_test_token']);
    await search('test token');
    assert.match(page.url(), /\/explorer\/token\/con_test_token$/, 'by name, any case');
    await search(tokenTransfer.hash.slice(0, 20).toLowerCase());
    assert.match(page.url(), new RegExp(`/explorer/tx/${tokenTransfer.hash}$`));
    assert.equal((await search('0'))!.status(), 200);
    assert.match(await page.locator('h1').innerText(), /Genesis/);
    const none = await search('nothing_here_42');
    assert.equal(none!.status(), 404);
    assert.match(await page.locator('main').innerText(), /Nothing matches nothing_here_42/);
    assert.equal(await page.locator('main a[href="/explorer/address/nothing_here_42"]').count(), 1, 'an account name can still be opened as an address');
    assert.equal((await search('ffff0000ffff'))!.status(), 404, 'a hash prefix that matches nothing');
    assert.match(await page.locator('main').innerText(), /Nothing matches ffff0000ffff/);
    for (const bad of ['a/b', 'x'.repeat(200), 'tab\there']) {
      assert.equal((await search(bad))!.status(), 400, bad);
      assert.match(await page.locator('main').innerText(), /cannot search for/);
    }
  });

  it('every link on every page type resolves (no 4xx/5xx), block 0 included', async () => {
    const t = trader();
    const start = ['/explorer', `/explorer/block/${received.height}`, `/explorer/tx/${swapTx}`, `/explorer/tx/${failed.hash}`, `/explorer/address/${t.address}`,
      '/explorer/tokens', '/explorer/token/con_test_token', '/explorer/token/currency', '/explorer/dex', '/explorer/dex/pair/2', '/explorer/contracts',
      '/explorer/contract/con_test_token', '/explorer/contract/currency', '/explorer/addresses', '/explorer/events', '/explorer/block/0'];
    const seen = new Set<string>(start);
    const failures: string[] = [];
    const perRoute = new Map<string, number>();
    const linksToGenesis = new Set<string>();
    /** A link's route: ids (numbers, hashes, names after a page kind) folded, query keys kept — at most 8 links of each are followed. */
    const routeOf = (link: string) => {
      const [path, query = ''] = link.split('?');
      const keys = [...new URLSearchParams(query).keys()].sort().join('&');
      return `${path!.replace(/^(\/explorer\/(?:block|tx|address|token|contract|dex\/pair))\/.+$/, '$1/*')}?${keys}`;
    };
    const queue = [...start];
    while (queue.length && seen.size <= 400) {
      const url = queue.shift()!;
      const res = await request(h.url(url));
      if (res.status >= 400) failures.push(`${url} → ${res.status}`);
      if (!String(res.headers['content-type']).startsWith('text/html')) continue;
      for (const m of res.text.matchAll(/href="(\/[^"#]*)"/g)) {
        const link = m[1]!.replace(/&amp;/g, '&');
        if (link === '/explorer/block/0') linksToGenesis.add(url);
        const route = routeOf(link);
        if (seen.has(link) || (perRoute.get(route) ?? 0) >= 8) continue;
        perRoute.set(route, (perRoute.get(route) ?? 0) + 1);
        seen.add(link);
        queue.push(link);
      }
    }
    assert.equal(queue.length, 0, 'the crawl finished within its bound');
    assert.ok(seen.size > 40, `crawled ${seen.size} pages: ${[...seen].join(' ')}`);
    assert.ok(['/explorer/token/con_test_token', '/explorer/tokens', '/explorer/contract/currency'].every((u) => linksToGenesis.has(u)),
      `holders, the token list and a genesis contract link to block 0 (${[...linksToGenesis].join(' ')})`);
    assert.deepEqual(failures, []);
  });
  it('wide tables fit at 1280 px and scroll inside their card on a phone; the page never scrolls sideways', async () => {
    const t = trader();
    const pages = ['/explorer', `/explorer/block/${tokenTransfer.height}`, `/explorer/address/${t.address}`, '/explorer/token/con_test_token', '/explorer/tokens',
      '/explorer/dex', '/explorer/dex/pair/2', '/explorer/contracts', '/explorer/contract/con_test_token', '/explorer/addresses', '/explorer/events'];
    const misfits: string[] = [];
    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      for (const url of pages) {
        await page.goto(h.url(url));
        const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth'));
        if (overflow > 0) misfits.push(`${url} at ${size.width}px: the page scrolls sideways by ${overflow}px`);
        if (size === DESKTOP) {
          const cut = await page.locator('main .scroll').evaluateAll((boxes) => boxes.filter((b) => b.scrollWidth > b.clientWidth + 1).map((b) => `${b.querySelector('th:last-child')?.textContent}: ${b.scrollWidth - b.clientWidth}px`));
          for (const c of cut) misfits.push(`${url} at 1280px: a table is wider than its card (last column ${c})`);
        } else {
          const unscrollable = await page.locator('main table').evaluateAll((tables) => tables.filter((tb) => tb.getBoundingClientRect().width > window.innerWidth && !tb.closest('.scroll')).length);
          if (unscrollable) misfits.push(`${url} at ${size.width}px: ${unscrollable} wide tables outside a scroll box`);
        }
      }
    }
    await page.setViewportSize(DESKTOP);
    assert.deepEqual(misfits, []);
  });
});
