import { existsSync } from 'node:fs';
import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { request } from '../../support/test-host.js';
import { bootDashboardHost, RELAXED_LIMITS, transfer, type DashboardHost } from './support/dashboard-host.js';

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const EVIL = '<img src=x onerror=alert(1)>_"quoted"';

/** Size and pixel variety of a PNG: a blank page inflates to a handful of distinct byte values. */
function pngStats(png: Buffer): { width: number; height: number; distinctBytes: number } {
  assert.equal(png.subarray(1, 4).toString('latin1'), 'PNG');
  let offset = 8;
  let width = 0;
  let height = 0;
  const idat: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.subarray(offset + 4, offset + 8).toString('latin1');
    const data = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
    } else if (type === 'IDAT') idat.push(data);
    offset += 12 + length;
  }
  const pixels = zlib.inflateSync(Buffer.concat(idat));
  const seen = new Set<number>();
  for (let i = 0; i < pixels.length; i += 7) seen.add(pixels[i]!);
  return { width, height, distinctBytes: seen.size };
}

const CHROMIUM = '/usr/bin/chromium';

describe('dashboard explorer (server-rendered, no JavaScript needed)', function () {
  this.timeout(120_000);
  let h: DashboardHost;
  let browser: Browser;
  let page: Page;
  let sent: { hash: string; height: string };
  let evil: { hash: string; height: string };
  let sender: string;

  before(async function () {
    if (!existsSync(CHROMIUM)) {
      // Same rule as the PostgreSQL half: CI installs Debian's chromium and requires it.
      if (process.env.CHAIN_TEST_REQUIRE_CHROMIUM === '1') throw new Error(`${CHROMIUM} is missing and CHAIN_TEST_REQUIRE_CHROMIUM=1`);
      console.log(`  ${CHROMIUM} not installed (apt-get install chromium): headless explorer tests SKIPPED`);
      this.skip();
    }
    h = await bootDashboardHost({ dashboard: RELAXED_LIMITS });
    sender = h.accounts[0]!.address;
    sent = await transfer(h, 'my_friend', 5);
    evil = await transfer(h, EVIL, 1);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });
  beforeEach(async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
  });
  afterEach(async () => {
    await page?.context().close();
  });
  after(async () => {
    await browser?.close();
    await h?.stop();
  });

  it('the block list links to a block, the block to its tx, the tx to its contract and sender', async () => {
    const res = await page.goto(h.url('/explorer'));
    assert.equal(res!.status(), 200);
    assert.match(await page.title(), /Blocks · chainhost explorer/);
    assert.match(await page.locator('h1').innerText(), new RegExp(h.chainId));

    await page.click(`a[href="/explorer/block/${sent.height}"]`);
    assert.match(await page.locator('h1').innerText(), new RegExp(`Block ${sent.height}`));
    const row = page.locator('tbody tr', { hasText: 'transfer' });
    assert.match(await row.innerText(), /currency[\s\S]*transfer[\s\S]*OK/);

    await row.locator(`a[href="/explorer/tx/${sent.hash}"]`).click();
    assert.equal(await page.locator('h1').innerText(), 'Transaction');
    const body = await page.locator('main').innerText();
    assert.ok(body.includes(sent.hash));
    assert.ok(body.includes('currency.balances:my_friend'), 'the exact state key');
    assert.match(body, /Transfer/);

    await page.locator('dd a[href="/explorer/contract/currency"]').first().click();
    assert.equal(await page.locator('h1').innerText(), 'Contract currency');
    assert.match(await page.locator('main').innerText(), /transfer\(amount: float, to: str\)/);
    assert.match(await page.locator('pre').innerText(), /def transfer/);

    await page.goBack();
    await page.locator(`dd a[href="/explorer/address/${sender}"]`).first().click();
    assert.match(await page.locator('main').innerText(), /requires BDS/, 'the address page needs BDS and says so');
  });

  it('previous and next block links walk the chain', async () => {
    await page.goto(h.url(`/explorer/block/${sent.height}`));
    await page.click(`a[href="/explorer/block/${Number(sent.height) + 1}"]`);
    assert.match(await page.locator('h1').innerText(), new RegExp(`Block ${Number(sent.height) + 1}`));
  });

  it('the contract list sorts and links', async () => {
    await page.goto(h.url('/explorer/contracts?sort=name&order=asc'));
    const names = await page.locator('tbody tr td:first-child a').allInnerTexts();
    assert.ok(names.includes('currency'));
    assert.deepEqual(names, [...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    await page.click('a[href="/explorer/contract/currency"]');
    assert.equal(await page.locator('h1').innerText(), 'Contract currency');
  });

  it('without BDS the address, token and DEX pages show what the node knows and say plainly what needs BDS', async () => {
    const res = await page.goto(h.url(`/explorer/address/${sender}`));
    assert.equal(res!.status(), 200);
    const address = await page.locator('main').innerText();
    const balance = (await request(h.url(`/api/abci_query/get/currency.balances:${sender}`))).json.response.value;
    assert.equal(await page.locator(`dd [data-exact="${balance}"]`).count(), 1, `the node's exact balance ${balance} (on hover and copy)`);
    assert.match(address, /Transfers in and out\s+Needs BDS: transfers requires BDS/);
    assert.equal(await page.locator(`a[href="/explorer/state?key=currency.balances%3A${sender}"]`).count(), 1);

    assert.equal((await page.goto(h.url('/explorer/dex')))!.status(), 200);
    const dex = await page.locator('main').innerText();
    assert.match(dex, /#1\s+con_test_usd \/ currency\s+50,000\s+100,000\s+2\s+needs BDS/, 'reserves from node state, readable, price, volume needs BDS');
    assert.equal(await page.locator('td .amt[data-exact="50000"]').count(), 1, 'the exact reserve ("50E+3" is 50000) on hover and copy');
    assert.equal((await page.goto(h.url('/explorer/dex/pair/1')))!.status(), 200);
    assert.match(await page.locator('h2:has-text("Price chart") + .card').innerText(), /Needs BDS: the price chart \(DEX candles\) requires BDS/);
    assert.equal((await page.goto(h.url('/explorer/token/con_test_token')))!.status(), 200);
    const token = await page.locator('main').innerText();
    assert.match(token, /Test Token \(TST\)[\s\S]*Stated total supply\s+\d+[\s\S]*Top holders\s+Needs BDS/);
    assert.match(token, /DEX markets[\s\S]*#2 con_test_token\/currency/);
    assert.equal((await page.goto(h.url('/explorer/dex/pair/99')))!.status(), 404);
    assert.equal((await page.goto(h.url('/explorer/token/con_nothing')))!.status(), 404);
    assert.equal((await page.goto(h.url('/explorer/dex/pair/x')))!.status(), 400);
    assert.match(await page.locator('main').innerText(), /id must be a positive integer pair id/);
    assert.equal((await page.goto(h.url('/explorer/dex/pair/2?interval=2m')))!.status(), 400);
    assert.equal((await page.goto(h.url(`/explorer/address/${sender}?before=abc`)))!.status(), 400);
    assert.match(await page.locator('main').innerText(), /before/);
  });

  it('addresses and events pages explain that they need BDS (503)', async () => {
    for (const p of ['/explorer/addresses', '/explorer/events']) {
      const res = await page.goto(h.url(p));
      assert.equal(res!.status(), 503);
      assert.match(await page.locator('main').innerText(), /requires BDS/);
    }
  });

  it('the search box finds blocks, transactions, contracts and state keys (a plain GET form)', async () => {
    const search = async (q: string) => {
      await page.goto(h.url('/explorer'));
      await page.fill('input[name=q]', q);
      await page.click('form.search button');
    };
    await search(sent.height);
    assert.match(page.url(), new RegExp(`/explorer/block/${sent.height}$`));
    await search(sent.hash.toLowerCase());
    assert.match(page.url(), new RegExp(`/explorer/tx/${sent.hash}$`));
    await search('currency');
    assert.match(page.url(), /\/explorer\/contract\/currency$/);
    await search('currency.balances:my_friend');
    assert.match(await page.locator('main').innerText(), /currency\.balances:my_friend[\s\S]*int[\s\S]*5/);
  });

  it('missing and malformed entities are 404 and 400 pages', async () => {
    assert.equal((await page.goto(h.url('/explorer/block/999999')))!.status(), 404);
    assert.match(await page.locator('main').innerText(), /Not found/);
    assert.equal((await page.goto(h.url(`/explorer/tx/${'CD'.repeat(32)}`)))!.status(), 404);
    assert.equal((await page.goto(h.url('/explorer/contract/con_nothing')))!.status(), 404);
    assert.equal((await page.goto(h.url('/explorer/block/abc')))!.status(), 400);
    assert.equal((await page.goto(h.url('/explorer/no-such-page')))!.status(), 404);
  });

  it('escapes everything the chain stores: no markup from a transaction reaches the page', async () => {
    const context = await browser.newContext({ javaScriptEnabled: true });
    const p = await context.newPage();
    let dialogs = 0;
    p.on('dialog', (d) => {
      dialogs++;
      void d.dismiss();
    });
    await p.goto(h.url(`/explorer/tx/${evil.hash}`));
    assert.equal(await p.locator('main img').count(), 0);
    assert.ok((await p.locator('main').innerText()).includes(`currency.balances:${EVIL}`), 'shown as text');
    const raw = await request(h.url(`/explorer/tx/${evil.hash}`));
    assert.ok(!raw.text.includes('<img src=x'), 'no raw markup in the HTML');
    assert.match(raw.text, /&lt;img src=x onerror=alert\(1\)&gt;/);
    assert.match(String(raw.headers['content-security-policy']), /default-src 'none'/);
    assert.equal(raw.headers['cache-control'], 'no-store, max-age=0');
    assert.equal(dialogs, 0);
    await context.close();
  });

  it('renders a non-blank page on a desktop and a phone, without sideways scrolling on the phone', async () => {
    await page.goto(h.url(`/explorer/tx/${sent.hash}`));
    const desktop = pngStats(await page.screenshot({ fullPage: true }));
    assert.equal(desktop.width, 1280);
    assert.ok(desktop.height >= 900);
    assert.ok(desktop.distinctBytes > 40, `desktop screenshot looks blank (${desktop.distinctBytes} distinct byte values)`);

    const phone = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
    const mobile = await phone.newPage();
    for (const p of ['/explorer', `/explorer/block/${sent.height}`, `/explorer/tx/${sent.hash}`, '/explorer/contract/currency', '/explorer/contracts',
      `/explorer/address/${sender}`, '/explorer/dex', '/explorer/dex/pair/1', '/explorer/token/con_test_token']) {
      await mobile.goto(h.url(p));
      const overflow = await mobile.evaluate('document.documentElement.scrollWidth - window.innerWidth');
      assert.ok(Number(overflow) <= 0, `${p} scrolls sideways on a phone by ${overflow}px`);
    }
    await mobile.goto(h.url('/explorer'));
    const shot = pngStats(await mobile.screenshot());
    assert.equal(shot.width, 780, '390 CSS px at 2× scale');
    assert.ok(shot.distinctBytes > 40, `phone screenshot looks blank (${shot.distinctBytes} distinct byte values)`);
    await phone.close();
  });
});
