import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { sign } from '../core/chain/keys.js';
import { canonicalPayload, encodeTransaction, type TxPayload } from '../core/chain/transaction.js';
import { Devnet, type DevAccount } from '../plugins/devnet/node/devnet.js';
import type { BenchResult } from './bench-result.js';

/**
 * Devnet event search (issue #30) on a chain of ~1,000 blocks, one transfer each, each figure
 * next to a baseline measured in the same run:
 * - node `/status` p99 while a loop of the 78-byte `tx_search?query="tx.height>0 AND
 *   transfer.nothing='x'"&per_page=1` runs (4 in flight), against `/status` p99 on the idle node;
 * - `tx_search` latency (p50) — a height, an attribute with 1,000 matches (one page), the hostile
 *   query — against a point `/block?height=` lookup.
 * The HTTP clients run in a worker thread, so their own work is not on the node's event loop.
 */
const HEIGHT = 1_000;
const SAMPLES = 400;

const CLIENT = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, samples } = workerData;
const get = async (p) => { const r = await fetch(url + p); await r.arrayBuffer(); if (r.status !== 200) throw new Error(p + ' answered ' + r.status); };
async function latencies(p, n) {
  const out = [];
  for (let i = 0; i < n; i++) { const t = performance.now(); await get(p); out.push(performance.now() - t); }
  return out.sort((a, b) => a - b);
}
parentPort.on('message', async ({ id, path, loadPath, concurrency }) => {
  try {
    let stop = false;
    let loaded = 0;
    const loops = loadPath ? Array.from({ length: concurrency }, async () => { while (!stop) { await get(loadPath); loaded++; } }) : [];
    const lat = await latencies(path, samples);
    stop = true;
    await Promise.all(loops);
    parentPort.postMessage({ id, lat, loaded });
  } catch (err) { parentPort.postMessage({ id, error: String(err) }); }
});
`;

function transfer(from: DevAccount, to: DevAccount, nonce: number): string {
  const payload: TxPayload = { chain_id: 'chain-local-1', chi_supplied: 1000, contract: 'currency', function: 'transfer', kwargs: { amount: 1, to: to.address }, nonce, sender: from.address };
  return encodeTransaction({ metadata: { signature: sign(from.privateKey, canonicalPayload(payload)) }, payload }).hex;
}

const p = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

export async function run(): Promise<BenchResult[]> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'bench-devnet-search-'));
  const devnet = await Devnet.open({ home, accounts: 3, config: { fsync: false } });
  try {
    const [a, b] = devnet.accounts() as [DevAccount, DevAccount];
    for (let nonce = 0; devnet.node.height < HEIGHT; nonce++) {
      devnet.node.admit(Buffer.from(transfer(a, b, nonce), 'utf8'));
      devnet.mine();
    }
    const { rpcUrl } = await devnet.listen({ port: 0, metricsPort: null });
    const client = new Worker(CLIENT, { eval: true, workerData: { url: rpcUrl, samples: SAMPLES } });
    let next = 0;
    const measure = (pathname: string, loadPath?: string) => new Promise<{ lat: number[]; loaded: number }>((resolve, reject) => {
      const id = next++;
      const onMessage = (m: { id: number; lat: number[]; loaded: number; error?: string }) => {
        if (m.id !== id) return;
        client.off('message', onMessage);
        if (m.error) reject(new Error(m.error));
        else resolve(m);
      };
      client.on('message', onMessage);
      client.postMessage({ id, path: pathname, loadPath, concurrency: 4 });
    });
    try {
      const q = (query: string, extra = '') => `/tx_search?query=${encodeURIComponent(`"${query}"`)}${extra}`;
      const hostile = q("tx.height>0 AND transfer.nothing='x'", '&per_page=1');
      await measure('/status'); // warm-up
      const idle = await measure('/status');
      const loaded = await measure('/status', hostile);
      const block = await measure(`/block?height=${HEIGHT - 223}`);
      const byHeight = await measure(q(`tx.height=${HEIGHT - 223}`));
      const byAttribute = await measure(q(`Transfer.to='${b.address}'`, '&per_page=1&order_by="desc"'));
      const hostileAlone = await measure(hostile);
      const idleP99 = p(idle.lat, 0.99);
      const blockP50 = p(block.lat, 0.5);
      const vsBlock = (name: string, lat: number[]): BenchResult => ({
        name, value: p(lat, 0.5), unit: 'ms p50', baseline: { name: '/block?height= p50', value: blockP50 }, ratio: p(lat, 0.5) / blockP50, target: 'ratio ≤ 3',
      });
      return [
        {
          name: `/status p99 during the hostile tx_search loop (${loaded.loaded} searches, height ${HEIGHT})`,
          value: p(loaded.lat, 0.99), unit: 'ms', baseline: { name: 'idle /status p99', value: idleP99 }, ratio: p(loaded.lat, 0.99) / idleP99, target: 'ratio ≤ 3 (was 55× at height 811)',
        },
        vsBlock('tx_search tx.height=777', byHeight.lat),
        vsBlock('tx_search Transfer.to=<addr> (999 matches, 1 page)', byAttribute.lat),
        vsBlock("tx_search tx.height>0 AND transfer.nothing='x'", hostileAlone.lat),
      ];
    } finally {
      await client.terminate();
    }
  } finally {
    await devnet.close();
    rmSync(home, { recursive: true, force: true });
  }
}
