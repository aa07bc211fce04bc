import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ChainNode } from '../../core/chain/node.js';
import { HttpChainRpc } from '../../core/chain/rpc/http-chain-rpc.js';
import { BdsDatabase } from '../../plugins/bds/database/bds-database.js';
import { DEFAULT_MNEMONIC, deriveAccounts } from '../../plugins/devnet/node/devnet.js';
import { startChainHost, type ChainHostProcess } from '../support/chain-host-process.js';
import { pgliteTemplateDir } from '../support/databases.js';
import { seededRandom, seedFromEnv } from '../support/seeded-random.js';
import { postJson } from '../support/test-host.js';
import { TransferTraffic } from '../support/transfer-traffic.js';

/**
 * Hardening: the full stack (`chain-host` with the devnet listening, BDS on PGlite and the tool
 * server) killed with SIGKILL at random moments while a generator submits signed transfers
 * over the node RPC, restarted on the same home each time. At the end the index must equal the
 * chain: every height 0..latest indexed exactly once with the node's block hash and the same
 * transactions, no gap, no duplicate; every block served before a kill is still the same block;
 * no transaction seen committed is lost. CHAIN_CRASH_SEED=<n> replays the kill moments.
 */
const SEED = seedFromEnv('CHAIN_CRASH_SEED');
const KILLS = 4;
const BLOCK_TIME_MS = 250;

interface SeenBlock {
  hash: string;
  txs: string[];
}

const txHash = (base64: string) => createHash('sha256').update(Buffer.from(base64, 'base64')).digest('hex').toUpperCase();

async function blockAt(node: ChainNode, height: number): Promise<SeenBlock> {
  const b = await node.block(height);
  return { hash: b.block_id.hash.toUpperCase(), txs: (b.block.data.txs ?? []).map(txHash) };
}

async function latestHeight(node: ChainNode): Promise<number> {
  return Number((await node.status()).sync_info.latest_block_height);
}

/** Records every block the node serves while it runs: what was committed before each kill. */
function watchBlocks(node: ChainNode, seen: Map<number, SeenBlock>): { stop(): Promise<void> } {
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      try {
        const latest = await latestHeight(node);
        for (let h = 1; h <= latest && !stopped; h++) if (!seen.has(h)) seen.set(h, await blockAt(node, h));
      } catch {
        // Killed under us: what was recorded stays.
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return { stop: async () => { stopped = true; await loop; } };
}

async function bds<T>(node: ChainNode, queryPath: string): Promise<T> {
  const answer = await node.query(queryPath);
  assert.equal(answer.code, 0, `${queryPath}: ${answer.log}`);
  return answer.value?.json as T;
}

async function waitUntil(what: string, timeoutMs: number, probe: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('hardening: crash/restart of the full stack under traffic', function () {
  this.timeout(240_000);

  it(`${KILLS} kill -9 at random moments: the index equals the chain, nothing committed is lost`, async () => {
    const random = seededRandom(SEED);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'chain-crash-'));
    const home = path.join(dir, 'home');
    const configFile = path.join(dir, 'chainrc.json');
    await cp(await pgliteTemplateDir(), path.join(home, 'bds'), { recursive: true });
    await writeFile(configFile, JSON.stringify({
      home,
      plugins: {
        // printAccounts: the banner is where the node RPC URL is read from (port 0 changes every start).
        devnet: { listen: true, port: 0, metricsPort: null, blockTimeMs: BLOCK_TIME_MS, printAccounts: true },
        bds: {},
        query: {},
      },
      tools: { http: { host: '127.0.0.1', port: 0 } },
    }));

    const accounts = deriveAccounts(DEFAULT_MNEMONIC, 5);
    const traffic = new TransferTraffic({ senders: accounts.slice(0, 4), recipient: accounts[4]!.address, chainId: 'chain-local-1', random, pauseMs: [20, 80] });
    const seen = new Map<number, SeenBlock>();
    const killedAt: string[] = [];
    const startups: number[] = [];
    let proc: ChainHostProcess | undefined;
    traffic.start();
    try {
      for (let run = 0; run < KILLS; run++) {
        const starting = performance.now();
        proc = await startChainHost(configFile);
        startups.push(Math.round(performance.now() - starting));
        const node = new ChainNode(new HttpChainRpc(proc.rpcUrl, { retries: 0, timeoutMs: 5_000 }));
        traffic.attach(node);
        const watcher = watchBlocks(node, seen);
        const delay = random.int(800, 3_500);
        await new Promise((r) => setTimeout(r, delay));
        await proc.kill();
        traffic.detach();
        await watcher.stop();
        await node.rpc.close();
        killedAt.push(`${delay} ms (height ≥ ${Math.max(0, ...seen.keys())})`);
      }

      // The last run: traffic for a while, then it stops and everything settles.
      proc = await startChainHost(configFile);
      const node = new ChainNode(new HttpChainRpc(proc.rpcUrl, { retries: 2, timeoutMs: 10_000 }));
      traffic.attach(node);
      const watcher = watchBlocks(node, seen);
      await new Promise((r) => setTimeout(r, 1_500));
      await traffic.stop();
      await waitUntil('an empty mempool', 20_000, async () => Number((await node.rpc.call<{ n_txs: string }>('num_unconfirmed_txs')).n_txs) === 0);
      const tip = (await latestHeight(node)) + 1;
      await waitUntil(`block ${tip}`, 10_000, async () => (await latestHeight(node)) >= tip);
      await watcher.stop();
      await waitUntil(`BDS indexed through ${tip}`, 60_000, async () => Number((await bds<any>(node, '/bds_status')).indexed.indexed_height ?? -1) >= tip);

      // The chain as the node serves it now.
      const chain = new Map<number, SeenBlock>();
      for (let h = 1; h <= tip; h++) chain.set(h, await blockAt(node, h));
      const chainTxs = new Set([...chain.values()].flatMap((b) => b.txs));

      // Every height 0..tip exactly once, with the node's hash (BDS lists newest first, in pages).
      const rows: Array<{ height: number; block_hash: string }> = [];
      for (let offset = 0; ; offset += 1000) {
        const page = await bds<Array<{ height: number; block_hash: string }>>(node, `/blocks/limit=1000/offset=${offset}`);
        rows.push(...page);
        if (page.length < 1000) break;
      }
      const indexed = rows.filter((r) => Number(r.height) <= tip).sort((a, b) => Number(a.height) - Number(b.height));
      assert.deepEqual(indexed.map((r) => Number(r.height)), Array.from({ length: tip + 1 }, (_, h) => h), 'heights 0..tip, each once, no gap');
      for (let h = 1; h <= tip; h++) {
        assert.equal(indexed[h]!.block_hash, chain.get(h)!.hash, `block hash at ${h}`);
        const txs = await bds<Array<{ tx_hash: string; tx_index: number }>>(node, `/txs_for_block/${h}`);
        assert.deepEqual(txs.map((t) => t.tx_hash.toUpperCase()), chain.get(h)!.txs, `transactions of block ${h}`);
      }

      // Durability: a block served before a kill is the same block after it.
      for (const [h, block] of seen) if (h <= tip) assert.deepEqual(chain.get(h), block, `block ${h} as served before a kill`);
      // No accepted transaction of the last run is lost; the lost ones died in a mempool with a kill.
      const lost = [...traffic.accepted.values()].filter((t) => !chainTxs.has(t.hash));
      assert.deepEqual(lost.filter((t) => t.run === KILLS), [], 'transactions accepted by the run that was not killed');
      const seenTxs = new Set([...seen.values()].flatMap((b) => b.txs));
      assert.deepEqual(lost.filter((t) => seenTxs.has(t.hash)), [], 'transactions seen committed');
      assert.ok(chainTxs.size >= 20, `traffic reached the chain: ${chainTxs.size} transactions`);

      // The tool server reads the same index.
      const sample = [...chainTxs].filter((_, i) => i % Math.max(1, Math.floor(chainTxs.size / 5)) === 0).slice(0, 5);
      for (const hash of sample) {
        const res = await postJson(`${proc.toolsUrl}/tools/get_indexed_tx`, { tx_hash: hash });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.json.found, true, hash);
      }
      await node.rpc.close();
      assert.equal(await proc.stop(), 0, `clean stop:\n${proc.stderrTail()}`);

      // And in the database itself, after a clean stop: no duplicate row anywhere.
      const db = await BdsDatabase.open({ url: null, pgliteDir: path.join(home, 'bds') });
      try {
        const dupBlocks = (await db.knex.raw('SELECT height FROM blocks GROUP BY height HAVING count(*) > 1')).rows;
        const dupTxs = (await db.knex.raw('SELECT hash FROM transactions GROUP BY hash HAVING count(*) > 1')).rows;
        const txCount = Number((await db.knex.raw('SELECT count(*) AS n FROM transactions WHERE block_height BETWEEN 1 AND ?', [tip])).rows[0].n);
        assert.deepEqual([dupBlocks, dupTxs], [[], []], 'no duplicate block or transaction rows');
        assert.equal(txCount, chainTxs.size, 'one transaction row per transaction of the chain');
      } finally {
        await db.close();
      }
      process.stderr.write(`      seed ${SEED}: starts in ${startups.join(', ')} ms; kills after ${killedAt.join(', ')}; ${tip} blocks, ${chainTxs.size} transactions, ${traffic.accepted.size} accepted, ${lost.length} lost with a mempool\n`);
    } catch (err) {
      if (err instanceof Error) err.message = `[CHAIN_CRASH_SEED=${SEED}; kills after ${killedAt.join(', ') || 'none yet'}] ${err.message}${proc ? `\nchain-host stderr (tail):\n${proc.stderrTail().slice(-4000)}` : ''}`;
      throw err;
    } finally {
      await traffic.stop();
      await proc?.kill();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
