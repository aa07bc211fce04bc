import { assertBoundedGrowth, fullStack, get, report, type FullStack } from './support/complexity-harness.js';

/**
 * The dashboard's routes with caller-chosen text of growing length, up to node:http's 16 KB
 * header cap: explorer search, state keys, ABCI pass-through paths and contract names. Each
 * answer is a 2xx/4xx within budget, growth is linear, and node /status keeps answering.
 */
const MAX_URL_CHARS = 14_000;
const SIZES = [100, 1_000, 4_000, MAX_URL_CHARS];
const filler = (n: number) => 'a*?['.repeat(Math.ceil(n / 4)).slice(0, n);

describe('complexity fuzzer: dashboard routes', function () {
  this.timeout(600_000);
  let stack: FullStack;
  before(async function () {
    this.timeout(240_000);
    stack = await fullStack();
  });

  const routes: Array<[string, (n: number) => string]> = [
    ['/explorer/search?q=', (n) => `/explorer/search?q=${encodeURIComponent(filler(n))}`],
    ['/explorer/state?key=', (n) => `/explorer/state?key=${encodeURIComponent(`currency.balances:${filler(n)}`)}`],
    ['/api/abci_query/get/…', (n) => `/api/abci_query/get/currency.balances:${encodeURIComponent(filler(n))}`],
    ['/api/contract/…', (n) => `/api/contract/${encodeURIComponent(filler(n))}`],
  ];
  for (const [name, path] of routes) {
    it(`${name} with text up to ${MAX_URL_CHARS} characters`, async () => {
      report(`dashboard ${name}`, await assertBoundedGrowth(stack, { sizes: SIZES, input: path, send: (p) => get(stack.dashboardUrl + p) }));
    });
  }
});
