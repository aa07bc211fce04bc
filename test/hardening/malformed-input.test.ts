import assert from 'node:assert/strict';
import fc from 'fast-check';
import { deriveFromMnemonic } from '../../core/chain/hd-wallet.js';
import { bootTestHost, postJson, request, TEST_TOKEN, type RawResponse, type TestHost } from '../support/test-host.js';

/**
 * Hardening: every tool's input schema and the dashboard's path parameters fed malformed values
 * (wrong types, huge strings and numbers, unicode, path traversal, bad hex, unknown fields).
 * Every answer must be a 2xx or a 4xx with the one error shape — never a 5xx, a crash or a
 * hang — and no response may carry a private key the caller sent.
 */
const DEV_KEYS = [0, 1, 2].map((index) => deriveFromMnemonic('test test test test test test test test test test test junk', { index }).privateKey);
/** Tools whose purpose is to hand a key back to its owner. */
const RETURNS_KEYS = new Set(['create_wallet', 'create_wallet_from_private_key', 'create_hd_wallet', 'create_hd_wallet_from_mnemonic']);
const AUTH = { authorization: `Bearer ${TEST_TOKEN}` };
const RUNS = Number(process.env.CHAIN_HARDENING_RUNS ?? 20);

const nasty = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 50 }),
  fc.string({ minLength: 5_000, maxLength: 20_000 }),
  fc.integer(),
  fc.bigInt().map((b) => Number(b)),
  fc.double(),
  fc.constantFrom(1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, -0, 0.1, 1e-30),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom('../../etc/passwd', '..%2f..%2fetc%2fpasswd', '0x' + 'f'.repeat(64), 'zz'.repeat(32), 'ab'.repeat(33), '\u0000', '😀'.repeat(40), '{"__fixed__":"1"}'),
  fc.array(fc.anything(), { maxLength: 5 }),
  fc.object({ maxDepth: 2 }),
);

/** Real keys, and near-misses a careless error message would quote. */
const keyish = fc.oneof(
  fc.constantFrom(...DEV_KEYS),
  fc.constantFrom(...DEV_KEYS).map((k) => k.toUpperCase()),
  fc.constantFrom(...DEV_KEYS).map((k) => `0x${k}`),
  fc.constantFrom(...DEV_KEYS).map((k) => `${k}zz`),
  fc.constantFrom(...DEV_KEYS).map((k) => ` ${k.slice(0, 63)} `),
  nasty,
);
const SECRET_ARGUMENT = /private_key|mnemonic/;

function argsFor(properties: string[]): fc.Arbitrary<unknown> {
  const keys = [...properties, 'unexpected_field'];
  const secretKeys = properties.filter((p) => SECRET_ARGUMENT.test(p));
  const plain = fc.dictionary(fc.constantFrom(...keys), nasty, { maxKeys: keys.length });
  const withSecrets = secretKeys.length
    ? fc.tuple(plain, fc.dictionary(fc.constantFrom(...secretKeys), keyish, { minKeys: 1 })).map(([a, b]) => ({ ...a, ...b }))
    : plain;
  return fc.oneof({ weight: 1, arbitrary: fc.anything() }, { weight: 3, arbitrary: plain }, { weight: 3, arbitrary: withSecrets });
}

/** A key (or most of one) the caller sent as a secret argument must not come back. */
function leaked(text: string): string | undefined {
  const lower = text.toLowerCase();
  return DEV_KEYS.find((k) => lower.includes(k.slice(0, 40)));
}

function assertSafe(res: RawResponse, what: string, allowed5xx: number[] = []): void {
  assert.ok(res.status < 500 || allowed5xx.includes(res.status), `${what}: status ${res.status} ${res.text.slice(0, 300)}`);
  if (res.status >= 400) {
    assert.equal(typeof res.json?.error?.code, 'string', `${what}: error shape ${res.text.slice(0, 200)}`);
    assert.equal(typeof res.json?.error?.message, 'string', `${what}: error shape`);
  }
}

describe('hardening: malformed input never gets a 5xx or echoes a key', function () {
  this.timeout(300_000);
  let h: TestHost;
  let tools: Array<{ name: string; input_schema: { properties?: Record<string, unknown> } }>;

  before(async () => {
    h = await bootTestHost(
      {
        plugins: { devnet: { listen: false, printAccounts: false }, wallet: {}, query: {}, crypto: {}, dex: {}, simulate: {}, dashboard: { port: 0, limits: { api: { ratePerSecond: 100_000, burst: 100_000 }, expensive: { ratePerSecond: 100_000, burst: 100_000 } } } },
        tools: { http: { host: '127.0.0.1', port: 0, token: TEST_TOKEN } },
      },
      { env: { CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS: '1', CHAIN_MCP_HTTP_TOKEN: TEST_TOKEN } },
    );
    tools = (await request(h.url('/tools'), { headers: AUTH })).json;
    assert.ok(tools.length > 30);
  });
  after(async () => h?.stop());

  it('every tool, random arguments', async () => {
    for (const tool of tools) {
      await fc.assert(
        fc.asyncProperty(argsFor(Object.keys(tool.input_schema.properties ?? {})), async (args) => {
          // A long wait is a valid request, not a hang: keep live waits short.
          if (args && typeof args === 'object' && 'timeout_seconds' in args) (args as Record<string, unknown>).timeout_seconds = 1;
          const res = await postJson(h.url(`/tools/${tool.name}`), JSON.stringify(args) ?? 'null', AUTH);
          // This host has no BDS: indexed tools answer the documented 503 bds_unavailable.
          assertSafe(res, `${tool.name}(${JSON.stringify(args)?.slice(0, 200)})`, res.json?.error?.code === 'bds_unavailable' ? [503] : []);
          if (!RETURNS_KEYS.has(tool.name)) assert.equal(leaked(res.text), undefined, `${tool.name} echoed a private key: ${res.text.slice(0, 200)}`);
        }),
        { numRuns: RUNS },
      );
    }
  });

  it('dashboard path parameters: traversal, bad hex, unicode, huge', async () => {
    const base = h.host.serverUrl('dashboard')!;
    const segment = fc.oneof(nasty.map((v) => (typeof v === 'string' ? v : JSON.stringify(v) ?? 'x')), fc.constantFrom('..', '%2e%2e', '-1', '99999999999999999999', 'ZZ', ''));
    const routes = ['/api/block/', '/api/block_results/', '/api/tx/', '/api/contract/', '/api/address/', '/api/abci_query/get/', '/api/abci_query/simulate_tx/', '/api/abci_query/keys/', '/explorer/tx/', '/explorer/block/',
      '/explorer/address/', '/explorer/token/', '/explorer/contract/', '/explorer/dex/pair/'];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...routes), segment, async (route, value) => {
        const res = await request(base + route + encodeURIComponent(value.slice(0, 4_000)));
        // 503 is the documented answer of BDS routes in a host without BDS.
        if (route.startsWith('/explorer/')) assert.ok(res.status < 500 || res.status === 503, `${route}${value.slice(0, 80)}: ${res.status}`);
        else assertSafe(res, `${route}${value.slice(0, 80)}`, [503]);
      }),
      { numRuns: RUNS * 10 },
    );
  });
});
