import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';
import { REPO_ROOT, request } from '../../support/test-host.js';
import { bootDashboardHost, RELAXED_LIMITS, transfer, type DashboardHost } from './support/dashboard-host.js';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const ARTIFACTS = path.join(REPO_ROOT, 'test/artifacts');
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

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
    h = await bootDashboardHost({ plugins: { bds: {}, wallet: {}, dex: {} }, dashboard: RELAXED_LIMITS, config: { tools: { unsafe: true } } });
    const t = trader();
    // The DEX flow: plan and submit a swap, add liquidity, sell through the helper.
    const swap = await tool('dex_plan_swap', { token_in: 'currency', token_out: 'con_test_token', amount: '42.5', account: t.address, recipient: t.address });
    await tool('dex_submit_swap', { private_key: t.privateKey, plan_id: swap.plan_id });
    const add = await tool('dex_plan_add_liquidity', { token_a: 'currency', token_b: 'con_test_token', amount_a_desired: '100', amount_b_desired: '100', account: t.address, recipient: t.address });
    await tool('dex_submit_add_liquidity', { private_key: t.privateKey, plan_id: add.plan_id });
    await tool('sell_on_dex', { private_key: t.privateKey, sell_token: 'con_test_token', amount: '3.25' });
    received = await transfer(h, h.accounts[3]!.address, 7, 1);
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
    assert.ok(main.includes(String(balance)), `the exact currency balance ${balance}`);
    const tst = (await request(h.url(`/api/abci_query/get/con_test_token.balances:${t.address}`))).json.response.value;
    const holdings = await page.locator('h2:has-text("Token holdings") + .card').innerText();
    assert.match(holdings, /Test Token[\s\S]*TST/);
    assert.ok(holdings.includes(String(tst)), `the exact con_test_token balance ${tst} in ${holdings}`);
    const transfers = await page.locator('h2:has-text("Transfers in and out") + .card').innerText();
    assert.match(transfers, /^Out\s+c?\w+…\w+\s+7\s+CHAIN/m, 'the transfer sent, with its amount and symbol');
    assert.match(transfers, /^Out\s+con_pairs\s+42\.5\s+CHAIN/m, 'the swap input sent out');
    assert.match(transfers, /^In\s+con_pairs\s+[0-9.]+\s+TST/m, 'the swap output received');
    assert.match(transfers, /UTC/);
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
    assert.ok(pairText.includes(String(reserve0)) || /E/.test(String(reserve0)), `reserve0 ${reserve0}`);
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
      assert.match(await live.locator(`#latest-txs tr[data-tx="${sent.hash}"]`).innerText(), /currency[\s\S]*transfer/);
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
    const pages = ['/explorer', `/explorer/block/${received.height}`, `/explorer/tx/${received.hash}`, `/explorer/address/${t.address}`,
      '/explorer/token/con_test_token', '/explorer/tokens', '/explorer/dex', '/explorer/dex/pair/1', '/explorer/contract/con_test_token'];
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
});
