import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { request } from '../../support/test-host.js';
import { bootGraphqlHost, prepareDatabase, type GraphqlHost, type PreparedDatabase } from './support/graphql-host.js';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/**
 * Issue #40 item 8: `/graphiql` serves a GraphQL IDE (Ruru, PostGraphile's GraphiQL) that works
 * offline — headless Chromium loads it, it introspects the schema and runs a query through
 * `POST /graphql`, and it asks nothing of any origin but this server's.
 */
describe('GraphQL IDE at /graphiql (Chromium)', function () {
  this.timeout(180_000);
  let db: PreparedDatabase;
  let g: GraphqlHost;
  let browser: Browser;
  before(async function () {
    if (!existsSync(CHROMIUM)) {
      if (process.env.CHAIN_TEST_REQUIRE_CHROMIUM === '1') throw new Error(`${CHROMIUM} is missing and CHAIN_TEST_REQUIRE_CHROMIUM=1`);
      console.log(`  ${CHROMIUM} not installed (apt-get install chromium): headless IDE test SKIPPED`);
      this.skip();
    }
    db = await prepareDatabase('pglite');
    g = await bootGraphqlHost(db);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });
  after(async () => {
    await browser?.close();
    await g?.stop();
    await db?.remove();
  });

  for (const path of ['/graphiql', '/graphql']) {
    it(`${path}: loads, introspects and runs a query with no request outside this server`, async () => {
      const origin = new URL(g.url).origin;
      const context = await browser.newContext();
      const page = await context.newPage();
      const requests: string[] = [];
      const problems: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      page.on('pageerror', (e) => problems.push(e.message));
      page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
      page.on('response', (r) => { if (r.status() >= 400) problems.push(`${r.url()} → ${r.status()}`); });
      try {
        const introspected = page.waitForResponse((res) => res.url() === g.url && res.request().method() === 'POST' && (res.request().postData() ?? '').includes('__schema'), { timeout: 60_000 });
        const res = await page.goto(origin + path);
        assert.equal(res!.status(), 200);
        const schema = await (await introspected).json();
        assert.ok(schema.data.__schema.queryType.name, `the IDE introspected the schema: ${JSON.stringify(schema).slice(0, 300)}`);

        // Type a query into the editor and run it (Ctrl+Enter), as a user would.
        await page.locator('.graphiql-query-editor .monaco-editor').first().click({ timeout: 60_000 });
        await page.keyboard.press('Control+A');
        await page.keyboard.press('Delete');
        await page.keyboard.type('{ allBlocks { totalCount } }');
        const ran = page.waitForResponse((res) => res.url() === g.url && (res.request().postData() ?? '').includes('allBlocks'), { timeout: 30_000 });
        await page.keyboard.press('Control+Enter');
        const answer = await (await ran).json();
        assert.deepStrictEqual(answer, { data: { allBlocks: { totalCount: 7 } } });
        await page.waitForFunction(() => /totalCount/.test(document.querySelector('.graphiql-response')?.textContent ?? ''), null, { timeout: 30_000 });

        const elsewhere = requests.filter((u) => !u.startsWith(origin + '/') && !u.startsWith('blob:') && !u.startsWith('data:'));
        assert.deepEqual(elsewhere, [], 'no request outside the server');
        assert.ok(requests.some((u) => u.startsWith(`${origin}/graphiql/static/`)), 'assets from this server');
        assert.deepEqual(problems, [], 'no script or CSP errors');
      } finally {
        await context.close();
      }
    });
  }

  it('the IDE routes are on the GraphQL server: its Host check refuses a foreign Host for /graphiql as for /graphql', async () => {
    const foreign = { host: 'evil.example' };
    const post = await request(g.url, { method: 'POST', headers: { ...foreign, 'content-type': 'application/json' }, body: '{"query":"{ __typename }"}' });
    const ide = await request(g.url.replace(/\/graphql$/, '/graphiql'), { headers: { ...foreign, accept: 'text/html' } });
    assert.ok(post.status >= 400 && post.status < 500, `POST with a foreign Host: ${post.status}`);
    assert.equal(ide.status, post.status);
  });
});
