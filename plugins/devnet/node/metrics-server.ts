import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type HostHeaderAllowed, hostHeaderRefusal, httpServerOptions, loopbackHostHeaderAllowed } from 'chainhost/plugin';
import { Counter, Gauge, Registry } from 'prom-client';
import { addBdsHealthMetrics, BdsHealth } from './bds-health-metrics.js';
import type { DevnetNode } from './devnet-node.js';
import type { StoredBlock } from './stored-block.js';

/**
 * The node's Prometheus exporter (abci-query.md §8) on its own port (default 9108, path
 * `/metrics`). Families use the `chain_` prefix (open point in the reference): node info,
 * current height, the latest block's perf fields, plus devnet counters — committed and failed
 * transactions, mempool size and bytes, dry runs by outcome and in flight — and BDS health
 * (`chain_bds_*`, `block_service_mode="true"`) when the node serves `/bds_status`. Each devnet
 * has its own registry, so several can run in one process.
 */
export class NodeMetrics {
  readonly registry = new Registry();
  private readonly txs: Counter<'result'>;
  private readonly blocks: Counter;

  constructor(node: DevnetNode) {
    const r = this.registry;
    const bds = new BdsHealth(async () => {
      const answer = await node.query.decoded({ path: '/bds_status' });
      const json = answer.code === 0 ? answer.value?.json : null;
      return json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : null;
    });
    new Gauge({
      name: 'chain_node_info', help: 'Node identity and modes (always 1).', registers: [r],
      labelNames: ['chain_id', 'execution_mode', 'block_service_mode', 'parallel_execution_enabled', 'tx_fees_enabled'] as const,
      async collect() {
        this.reset();
        const blockService = (await bds.status()) !== null;
        this.set({
          chain_id: node.chainId, execution_mode: 'serial', block_service_mode: String(blockService), parallel_execution_enabled: 'false',
          tx_fees_enabled: String(node.config.tx_fee_mode === 'paid_metered'),
        }, 1);
      },
    });
    addBdsHealthMetrics(r, bds);
    new Gauge({ name: 'chain_current_block_height', help: 'Height of the last committed block.', registers: [r], collect() { this.set(node.height); } });
    new Gauge({
      name: 'chain_perf_latest_block', help: 'The latest committed block: height, tx_count, duration_ms.', registers: [r], labelNames: ['field'] as const,
      collect() {
        const b = node.perf.latest();
        this.set({ field: 'height' }, node.height);
        if (b) { this.set({ field: 'tx_count' }, b.tx_count); this.set({ field: 'duration_ms' }, b.duration_ms); }
      },
    });
    this.blocks = new Counter({ name: 'chain_devnet_blocks_total', help: 'Blocks committed by this process.', registers: [r] });
    this.txs = new Counter({ name: 'chain_devnet_txs_total', help: 'Transactions in committed blocks by result code.', registers: [r], labelNames: ['result'] as const });
    new Gauge({ name: 'chain_devnet_mempool_txs', help: 'Transactions waiting in the mempool.', registers: [r], collect() { this.set(node.mempool.size); } });
    new Gauge({ name: 'chain_devnet_mempool_bytes', help: 'Raw bytes waiting in the mempool.', registers: [r], collect() { this.set(node.mempool.totalBytes); } });
    new Gauge({ name: 'chain_devnet_state_keys', help: 'Keys in committed application state.', registers: [r], collect() { this.set(node.store.state.size); } });
    new Gauge({ name: 'chain_devnet_simulations_active', help: 'Dry runs executing now.', registers: [r], collect() { this.set(node.simulator.activeRuns); } });
    new Gauge({
      name: 'chain_devnet_execution_worker_crashes', help: 'Times the block-execution worker thread died (each followed by a restart).', registers: [r],
      collect() { this.set(node.blockExecutor.status.crashes); },
    });
    new Gauge({
      name: 'chain_devnet_execution_worker_up', help: 'Whether the block-execution worker thread is running (1) or starting after a crash (0).', registers: [r],
      collect() { this.set(node.blockExecutor.status.running ? 1 : 0); },
    });
    new Gauge({
      name: 'chain_devnet_simulations', help: 'Dry runs answered since start, by outcome.', registers: [r], labelNames: ['outcome'] as const,
      collect() {
        const c = node.simulator.counters;
        this.set({ outcome: 'ok' }, c.ok);
        this.set({ outcome: 'failed' }, c.failed);
        for (const [k, v] of Object.entries(c.refused)) this.set({ outcome: k }, v);
      },
    });
  }

  /** Called by the block producer after each commit. */
  committed(block: StoredBlock): void {
    this.blocks.inc();
    let ok = 0;
    for (const r of block.txs_results) if (r.code === 0) ok++;
    if (ok) this.txs.inc({ result: 'ok' }, ok);
    if (block.txs_results.length - ok) this.txs.inc({ result: 'failed' }, block.txs_results.length - ok);
  }
}

export class MetricsServer {
  private readonly server: http.Server;
  /** The node RPC's DNS-rebinding check (rpc-server.ts): while bound to loopback, Host must name this server. */
  private hostAllowed: HostHeaderAllowed | null = null;

  constructor(metrics: NodeMetrics) {
    // A scrape sends no body: the host servers' header and request timeouts keep slow clients from holding sockets.
    this.server = http.createServer(httpServerOptions(), (req, res) => {
      if (this.hostAllowed && !this.hostAllowed(req.headers.host, req.socket)) {
        res.writeHead(403, { 'Content-Type': 'text/plain' }).end(`${hostHeaderRefusal(req.headers.host)}\n`);
        return;
      }
      if (new URL(req.url ?? '/', 'http://x').pathname !== '/metrics') {
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found; metrics are at /metrics\n');
        return;
      }
      metrics.registry.metrics().then(
        (text) => res.writeHead(200, { 'Content-Type': metrics.registry.contentType }).end(text),
        (err) => res.writeHead(500, { 'Content-Type': 'text/plain' }).end(String(err)),
      );
    });
  }

  async listen(port: number, host: string): Promise<AddressInfo> {
    this.hostAllowed = loopbackHostHeaderAllowed(host);
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => { this.server.off('error', reject); resolve(); });
    });
    return this.server.address() as AddressInfo;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections?.();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
