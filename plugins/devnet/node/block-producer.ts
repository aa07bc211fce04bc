import type { ExecTxResult } from 'chainhost/chain';
import type { Logger } from 'chainhost/plugin';
import { buildHeader } from './block-header.js';
import type { ChainStore } from './chain-store.js';
import { resultsHash } from './cometbft-hashing.js';
import { committedNonce } from './check-tx.js';
import type { EventBus } from './event-bus.js';
import { publishBlock, statePatchEvents } from './block-events.js';
import { blockEnv, finalizeTxs, type BlockTx, type TxExecutor } from './finalize-block.js';
import type { Mempool, MempoolTx } from './mempool.js';
import type { NodeConfig } from './node-config.js';
import type { NodeIdentity } from './node-identity.js';
import type { NonceReservations } from './nonce-reservations.js';
import type { PerfStatus } from './perf-status.js';
import { BlockOverlay } from './state-reader.js';
import { StateRoot } from './state-root.js';
import type { StoredBlock } from './stored-block.js';

/**
 * Makes blocks: reaps the mempool, runs FinalizeBlock, applies the height's state patches,
 * commits (block log first), cleans the mempool and reservations, then publishes `NewBlock`
 * and `Tx` events and wakes `broadcast_tx_commit` callers. With `blockTimeMs = 0` a block is
 * cut as soon as a transaction arrives (everything that arrived in the same tick goes into it);
 * otherwise one block every `blockTimeMs`, empty or not, as CometBFT does by default.
 */
export interface StatePatchStep {
  /** Applies the patches scheduled at `env.height` onto the block's pending writes; returns their records. */
  apply(overlay: BlockOverlay, env: ReturnType<typeof blockEnv>): unknown[];
}

export interface BlockProducerDeps {
  chainId: string;
  config: NodeConfig;
  store: ChainStore;
  mempool: Mempool;
  reservations: NonceReservations;
  identity: NodeIdentity;
  executor: TxExecutor;
  events: EventBus;
  perf: PerfStatus;
  logger: Logger;
  genesisAppHash: string;
  genesisTimeNanos: bigint;
  patches?: StatePatchStep;
  /** Called after every commit (metrics). */
  onCommit?: (block: StoredBlock) => void;
}

interface CommitWaiter {
  resolve(r: { height: number; index: number; result: ExecTxResult }): void;
  reject(err: Error): void;
}

export class BlockProducer {
  private timer: NodeJS.Timeout | undefined;
  private scheduled = false;
  private stopped = true;
  private halted: Error | undefined;
  private readonly waiters = new Map<string, CommitWaiter[]>();
  /** CheckTx decodes of mempool txs, reused by FinalizeBlock for the same bytes. */
  private readonly checked = new Map<string, BlockTx['checked']>();

  constructor(private readonly deps: BlockProducerDeps, private readonly blockTimeMs: number) {}

  start(): void {
    this.stopped = false;
    if (this.deps.store.height === 0) this.produce(this.deps.genesisTimeNanos);
    if (this.blockTimeMs > 0) this.armTimer();
    else if (this.deps.mempool.size > 0) this.schedule();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Stops for good: `broadcast_tx_commit` callers still waiting are answered with an error. */
  shutdown(): void {
    this.stop();
    const waiters = [...this.waiters.values()].flat();
    this.waiters.clear();
    for (const w of waiters) w.reject(new Error('the devnet is shutting down'));
  }

  get haltReason(): Error | undefined {
    return this.halted;
  }

  /** A tx entered the mempool (with its CheckTx decode). */
  txAdded(tx: MempoolTx, checked: BlockTx['checked']): void {
    this.checked.set(tx.hash, checked);
    if (this.blockTimeMs === 0) this.schedule();
  }

  /** Resolves when the tx is in a committed block; rejects after `timeoutMs`. */
  waitForCommit(hash: string, timeoutMs: number): Promise<{ height: number; index: number; result: ExecTxResult }> {
    return new Promise((resolve, reject) => {
      const list = this.waiters.get(hash) ?? [];
      const timer = setTimeout(() => {
        const rest = (this.waiters.get(hash) ?? []).filter((w) => w !== waiter);
        if (rest.length) this.waiters.set(hash, rest);
        else this.waiters.delete(hash);
        reject(new Error('timed out waiting for tx to be included in a block'));
      }, timeoutMs);
      const waiter: CommitWaiter = {
        resolve: (r) => { clearTimeout(timer); resolve(r); },
        reject: (err) => { clearTimeout(timer); reject(err); },
      };
      list.push(waiter);
      this.waiters.set(hash, list);
    });
  }

  /** Cuts one block now from whatever the mempool holds (on-demand mining). */
  produce(timeNanos?: bigint): StoredBlock {
    if (this.halted) throw this.halted;
    const { store, config } = this.deps;
    const reaped = this.reap();
    const prev = store.latest();
    const now = timeNanos ?? BigInt(Date.now()) * 1_000_000n;
    const time = prev && now <= BigInt(prev.time_nanos) ? BigInt(prev.time_nanos) + 1_000n : now;
    const height = store.height + 1;
    const started = performance.now();
    const rawTxs = reaped.map((t) => t.raw);
    const built = buildHeader({
      chainId: this.deps.chainId, height, timeNanos: time, prev, genesisAppHash: this.deps.genesisAppHash,
      rawTxs, validator: this.deps.identity.validator, maxBlockBytes: config.max_block_bytes,
    });
    const env = blockEnv(this.deps.chainId, height, built.blockId.hash.toLowerCase(), time);
    const perfTimes: Record<string, number> = {};
    const timeScope = (scope: string, ms: number) => {
      perfTimes[scope] = (perfTimes[scope] ?? 0) + ms;
      this.deps.perf.record(scope, ms);
    };
    const loopStarted = performance.now();
    const { outcomes, overlay } = finalizeTxs({
      chainId: this.deps.chainId, maxTxBytes: config.max_tx_bytes, executor: this.deps.executor, state: store.state, env,
      txs: reaped.map((t) => ({ raw: t.raw, hash: t.hash, checked: this.checked.get(t.hash) })), time: timeScope,
    });
    timeScope('finalize_tx_loop', performance.now() - loopStarted);
    let patches: unknown[] = [];
    try {
      patches = this.deps.patches?.apply(overlay, env) ?? [];
    } catch (err) {
      // Upstream halts the node when an approved patch cannot be applied; so does the devnet.
      this.halted = err instanceof Error ? err : new Error(String(err));
      this.deps.logger.error('state patch failed; block production halted', { height, error: this.halted.message });
      this.stop();
      throw this.halted;
    }
    const rootStarted = performance.now();
    const root = new StateRoot(store.state.root.accumulator);
    for (const [key, value] of overlay.writes) root.update(key, store.state.get(key), value ?? undefined);
    timeScope('finalize_state_root', performance.now() - rootStarted);
    const results = outcomes.map((o) => o.result);
    const block: StoredBlock = {
      height,
      block_id: built.blockId,
      header: built.header,
      last_commit: built.lastCommit,
      txs: reaped.map((t) => t.raw.toString('base64')),
      tx_hashes: reaped.map((t) => t.hash),
      txs_results: results,
      finalize_block_events: statePatchEvents(patches),
      app_hash: root.hash().toString('hex').toUpperCase(),
      results_hash: resultsHash(results.map((r) => ({ code: r.code, data: Buffer.from(r.data ?? '', 'base64') }))).toString('hex').toUpperCase(),
      block_size: rawTxs.reduce((n, t) => n + t.length, 0) + 1024,
      time_nanos: time.toString(),
      writes: [...overlay.writes],
      ...(patches.length ? { patches } : {}),
    };
    const commitStarted = performance.now();
    store.commit(block, overlay.writes);
    timeScope('finalize_commit_prepare', performance.now() - commitStarted);
    this.afterCommit(block, reaped);
    const duration = performance.now() - started;
    timeScope('finalize_block', duration);
    this.deps.perf.block({
      height, txCount: reaped.length, durationMs: duration, metrics: perfTimes,
      metadata: { decoded_tx_count: reaped.length, error_tx_count: results.filter((r) => r.code !== 0).length, finalized_tx_result_count: results.length, state_patch_applied: patches.length > 0 },
    });
    this.deps.onCommit?.(block);
    return block;
  }

  private reap(): MempoolTx[] {
    const { mempool, config } = this.deps;
    const txs = mempool.reap(config.max_block_bytes);
    if (config.tx_fee_mode !== 'free_metered') return txs;
    // Free mode: the proposal caps the sum of chi_supplied; the rest waits for the next block.
    let sum = 0;
    const out: MempoolTx[] = [];
    for (const tx of txs) {
      const chi = Number(this.checked.get(tx.hash)?.payload.chi_supplied ?? 0);
      if (out.length > 0 && sum + chi > config.free_block_max_chi) break;
      sum += chi;
      out.push(tx);
    }
    return out;
  }

  private afterCommit(block: StoredBlock, included: MempoolTx[]): void {
    const { mempool, reservations, store } = this.deps;
    for (const tx of included) {
      mempool.remove(tx.hash);
      this.checked.delete(tx.hash);
      reservations.release(tx.sender, tx.nonce, tx.sha256);
    }
    // CometBFT re-checks what stays in the mempool: txs whose nonce is now used cannot succeed.
    for (const tx of mempool.list()) {
      const committed = committedNonce(store.state, tx.sender);
      if (committed !== undefined && tx.nonce <= committed) {
        mempool.remove(tx.hash);
        mempool.forget(tx.hash);
        this.checked.delete(tx.hash);
      }
      reservations.prune(tx.sender, committed);
    }
    publishBlock(this.deps.events, block);
    block.tx_hashes.forEach((hash, index) => {
      const waiters = this.waiters.get(hash);
      if (!waiters) return;
      this.waiters.delete(hash);
      for (const w of waiters) w.resolve({ height: block.height, index, result: block.txs_results[index]! });
    });
  }

  private schedule(): void {
    if (this.scheduled || this.stopped) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.stopped || this.deps.mempool.size === 0) return;
      this.safeProduce();
      if (this.deps.mempool.size > 0 && !this.halted) this.schedule();
    });
  }

  private armTimer(): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.stopped) return;
      this.safeProduce();
      if (!this.stopped) this.armTimer();
    }, this.blockTimeMs);
    this.timer.unref?.();
  }

  private safeProduce(): void {
    if (this.halted) return;
    try {
      this.produce();
    } catch (err) {
      // A block that cannot be made or stored (disk, patch) stops the chain, as a node halts.
      this.halted ??= err instanceof Error ? err : new Error(String(err));
      this.stop();
      this.deps.logger.error('block production failed; the devnet halted', { error: this.halted.message });
    }
  }
}
