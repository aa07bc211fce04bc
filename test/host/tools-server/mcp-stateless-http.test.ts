import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Wallet } from '../../../core/chain/keys.js';
import { Keystore } from '../../../core/keystore/keystore.js';
import { connectMcp } from '../../support/mcp-clients.js';
import { freePort } from '../../support/free-port.js';
import { TEST_TOKEN } from '../../support/test-host.js';
import { devAccount, startHost, tempHome, type RunningHost } from '../../plugins/wallet/chain-tool-kit.js';

/**
 * Stateless MCP over HTTP (issue #38): two tool servers of one CHAIN_HOME — each its own HTTP
 * server, MCP endpoint and memory, as two `chain-mcp-http` processes are — behind a proxy that
 * sends every request to the other one. A 2026-07-28 client's whole flow works: list, read, and
 * a send whose confirmation is asked by one server and answered to the other.
 */
const PASS = 'correct horse battery staple';
const SPENDER = devAccount(3);
const FRIEND = devAccount(4).address;

/** A reverse proxy that alternates between its targets request by request (no affinity at all). */
async function alternatingProxy(targets: string[]): Promise<{ url: string; served: number[]; close(): Promise<void> }> {
  const served = targets.map(() => 0);
  let next = 0;
  const server = http.createServer((req, res) => {
    const index = next++ % targets.length;
    served[index]!++;
    const target = new URL(targets[index]!);
    const upstream = http.request({ hostname: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    served,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

describe('two MCP HTTP servers behind an alternating proxy serve one 2026-07-28 client', function () {
  this.timeout(180_000);
  let home: Awaited<ReturnType<typeof tempHome>>;
  let node: RunningHost;
  const servers: RunningHost[] = [];

  before(async () => {
    process.env.CHAIN_KEYSTORE_PASSPHRASE = PASS;
    home = await tempHome();
    await new Keystore(home.dir, { scrypt: { n: 2 ** 10, r: 8, p: 1 } }).add('spender', Wallet.fromPrivateKey(SPENDER.privateKey), PASS);
    // The chain: a devnet serving its RPC, which both tool servers use as CHAIN_NODE_URL.
    const rpcPort = await freePort();
    node = await startHost({ home: `${home.dir}/node`, plugins: { devnet: { listen: true, port: rpcPort, metricsPort: null, printAccounts: false } } });
    const plugins = { wallet: { confirm: { ask: { above: { currency: '50' } }, fallback: 'refuse', timeoutSeconds: 60 } }, query: {} };
    for (let i = 0; i < 2; i++) {
      servers.push(await startHost({ home: home.dir, node: { url: `http://127.0.0.1:${rpcPort}` }, plugins }, { unsafe: true }));
    }
    // Warm each server's dry-run path (a busy machine's first dry run can outlast its timeout).
    for (const server of servers) {
      for (let attempt = 0; attempt < 3; attempt++) {
        if ((await server.call('send_tokens', { account: 'spender', to_address: FRIEND, amount: '1' })).ok) break;
      }
    }
  });

  after(async () => {
    delete process.env.CHAIN_KEYSTORE_PASSPHRASE;
    await Promise.all(servers.map((s) => s.stop()));
    await node?.stop();
    await home?.remove();
  });

  it('list, read, and a send confirmed across the two servers', async () => {
    const proxy = await alternatingProxy(servers.map((s) => s.host.url('/mcp')));
    const asked: string[] = [];
    const client = await connectMcp('v2@2026-07-28', { http: proxy.url }, {
      headers: { authorization: `Bearer ${TEST_TOKEN}` },
      elicit: async ({ message }) => (asked.push(message), { action: 'accept', content: {} }),
    });
    try {
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === 'send_tokens'));
      const balance = await client.callTool('get_balance', { address: FRIEND });
      assert.notEqual(balance.isError, true, JSON.stringify(balance.content));
      const nonceBefore = Number((await servers[0]!.call('get_next_nonce', { address: SPENDER.address })).result.nonce);
      const before = proxy.served.slice();
      const sent = await client.callTool('send_tokens', { account: 'spender', to_address: FRIEND, amount: '60' });
      assert.notEqual(sent.isError, true, JSON.stringify(sent.content));
      assert.equal((sent.structuredContent as { success?: boolean }).success, true);
      assert.equal(asked.length, 1, 'asked once');
      // The question came from one server and the answer went to the other.
      assert.deepEqual(proxy.served.map((n, i) => n - before[i]!), [1, 1]);
      assert.equal(Number((await servers[1]!.call('get_next_nonce', { address: SPENDER.address })).result.nonce), nonceBefore + 1);
      assert.ok(proxy.served.every((n) => n > 1), `both servers answered: ${proxy.served}`);
    } finally {
      await client.close();
      await proxy.close();
    }
  });
});
