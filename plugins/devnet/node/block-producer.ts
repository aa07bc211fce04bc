import type { ExecTxResult } from 'chainhost/chain';
import type { Logger } from 'chainhost/plugin';
import { buildHeader } from './block-header.js';
import type { ChainStore } from './chain-store.js';
import { resultsHash } from './cometbft-hashing.js';
import { committedNonce } from './check-tx.js';
import type { EventBus } from './event-bus.js';
import { publishBlock, statePatchEvents } from './block-events.js';
import type { BlockExecutor } from './block-executor.js';
import { applyExecutions, blockEnv, planBlock, type BlockTx } from './finalize-block.js';
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
  /** Runs the block's transactions in the block-execution worker thread. */
  executor: BlockExecutor;
  events: EventBus;
  perf: PerfStatus;
  logger: Logger;
  genesisAppHash: string;
  genesisTimeNanos: bigint;
  patches?: StatePatchStep;
  /** Called after every commit (metrics). */
  onCommit?: (block: StoredBlock) => void;
}

/**
 * Why blocks are not being made. A write failure (a full disk, an I/O error) is transient: the
 * producer retries with exponential backoff and resumes by itself when a block commits again.
 * A state patch that cannot be applied halts for good, as upstream's node does.
 */
export interface ProducerFault {
  error: Error;
  /** Epoch ms of the first failure. */
  since: number;
  /** Failed retries so far. */
  attempts: number;
  permanent: boolean;
  /** Epoch ms of the next retry (transient faults). */
  retryAt?: number;
}

/** A failure that retrying cannot cure. */
class PermanentHalt extends Error {
  constructor(override readonly cause: Error) {
    super(cause.message);
    this.name = 'PermanentHalt';
  }
}

interface CommitWaiter {
  resolve(r: { height: number; index: number; result: ExecTxResult }): void;
  reject(err: Error): void;
}

export class BlockProducer {
  private timer: NodeJS.Timeout | undefined;
  private scheduled = false;
  private stopped = true;
  private faulted: ProducerFault | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  /** Backoff of the retries after a transient fault: initialMs, doubling, at most maxMs. */
  retry = { initialMs: 1_000, maxMs: 30_000 };
  private readonly waiters = new Map<string, CommitWaiter[]>();
  /** CheckTx decodes of mempool txs, reused by FinalizeBlock for the same bytes. */
  private readonly checked = new Map<string, BlockTx['checked']>();
  /** The block being made (its transactions run in the block-execution worker). */
  private inFlight: Promise<void> = Promise.resolve();

  constructor(private readonly deps: BlockProducerDeps, private readonly blockTimeMs: number) {}

  async start(): Promise<void> {
    this.stopped = false;
    // The first block is part of opening the chain: a failure there fails the open.
    if (this.deps.store.height === 0) await this.exclusive(() => this.cut(this.deps.genesisTimeNanos));
    if (this.blockTimeMs > 0) this.armTimer();
    else if (this.deps.mempool.size > 0) this.schedule();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }

  /** Stops for good: `broadcast_tx_commit` callers still waiting are answered with an error. */
  shutdown(): void {
    this.stop();
    const waiters = [...this.waiters.values()].flat();
    this.waiters.clear();
    for (const w of waiters) w.reject(new Error('the devnet is shutting down'));
  }

  /** Settles when no block is being made (for a clean close). */
  async idle(): Promise<void> {
    await this.inFlight;
  }

  /** Why blocks are not being made, or undefined while they are. */
  get fault(): Readonly<ProducerFault> | undefined {
    return this.faulted;
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

  /**
   * Cuts one block now from whatever the mempool holds (on-demand mining). A failure to make or
   * store it is thrown and also recorded as the producer's fault (retried in the background
   * unless permanent); a success clears a transient fault.
   */
  produce(timeNanos?: bigint): Promise<StoredBlock> {
    return this.exclusive(async () => {
      if (this.faulted?.permanent) throw this.faulted.error;
      let block: StoredBlock;
      try {
        block = await this.cut(timeNanos);
      } catch (err) {
        // A block cut short by the node's shutdown is not a production fault.
        if (this.stopped && this.deps.store.height > 0) throw err instanceof Error ? err : new Error(String(err));
        throw this.failed(err);
      }
      if (this.faulted) this.recovered();
      return block;
    });
  }

  /** One block at a time: a block is cut only after the previous one committed (its transactions execute in a worker). */
  private exclusive<T>(step: () => Promise<T>): Promise<T> {
    const run = this.inFlight.then(step);
    this.inFlight = run.then(() => undefined, () => undefined);
    return run;
  }

  private async cut(timeNanos?: bigint): Promise<StoredBlock> {
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
    const plan = planBlock({
      chainId: this.deps.chainId, maxTxBytes: config.max_tx_bytes, state: store.state, env,
      txs: reaped.map((t) => ({ raw: t.raw, hash: t.hash, checked: this.checked.get(t.hash) })),
    });
    const executions = await this.deps.executor.execute(env, plan.planned, timeScope);
    const overlay = new BlockOverlay(store.state);
    const outcomes = applyExecutions(plan, executions, overlay);
    timeScope('finalize_tx_loop', performance.now() - loopStarted);
    let patches: unknown[] = [];
    try {
      patches = this.deps.patches?.apply(overlay, env) ?? [];
    } catch (err) {
      // Upstream halts the node when an approved patch cannot be applied; so does the devnet.
      throw new PermanentHalt(err instanceof Error ? err : new Error(String(err)));
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
    this.deps.executor.committed(height, overlay.writes);
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
    if (this.scheduled || this.stopped || this.faulted) return;
    this.scheduled = true;
    setImmediate(() => {
      if (this.stopped || this.deps.mempool.size === 0) {
        this.scheduled = false;
        return;
      }
      void this.safeProduce().then(() => {
        // What arrived while the block executed goes into the next one.
        this.scheduled = false;
        if (this.deps.mempool.size > 0) this.schedule();
      });
    });
  }

  private armTimer(): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.stopped) return;
      void this.safeProduce().then(() => {
        if (!this.stopped && !this.faulted && !this.timer) this.armTimer();
      });
    }, this.blockTimeMs);
    this.timer.unref?.();
  }

  /** The regular cadence: while a fault stands, only the retry timer tries. */
  private async safeProduce(): Promise<void> {
    if (this.faulted) return;
    try {
      await this.produce();
    } catch {
      // Recorded as the fault (and logged) by produce.
    }
  }

  /** Records a failure as the fault and schedules the next retry; returns the error to throw. */
  private failed(err: unknown): Error {
    const permanent = err instanceof PermanentHalt;
    const error = permanent ? (err as PermanentHalt).cause : err instanceof Error ? err : new Error(String(err));
    const { logger } = this.deps;
    if (!this.faulted) {
      this.faulted = { error, since: Date.now(), attempts: 0, permanent };
    } else {
      this.faulted.error = error;
      this.faulted.attempts++;
      this.faulted.permanent ||= permanent;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.faulted.permanent) {
      this.faulted.retryAt = undefined;
      logger.error('block production halted; it does not resume by itself', { height: this.deps.store.height + 1, error: error.message });
      return error;
    }
    const delay = Math.min(this.retry.maxMs, this.retry.initialMs * 2 ** Math.min(this.faulted.attempts, 30));
    this.faulted.retryAt = Date.now() + delay;
    (this.faulted.attempts === 0 ? logger.error : logger.warn).call(logger, 'block production failed; retrying', {
      height: this.deps.store.height + 1, error: error.message, attempt: this.faulted.attempts + 1, retryInMs: delay,
    });
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.retryNow(), delay);
    this.retryTimer.unref?.();
    return error;
  }

  private retryNow(): void {
    this.retryTimer = undefined;
    if (this.stopped || !this.faulted || this.faulted.permanent) return;
    // On-demand mode with nothing waiting has nothing to write: the next transaction tries again.
    if (this.blockTimeMs === 0 && this.deps.mempool.size === 0) return this.recovered();
    // failed() records a failure and schedules the next retry.
    this.produce().catch(() => undefined);
  }

  private recovered(): void {
    const fault = this.faulted!;
    this.faulted = undefined;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    this.deps.logger.info('block production resumed', { height: this.deps.store.height, downMs: Date.now() - fault.since, failedRetries: fault.attempts });
    if (this.stopped) return;
    if (this.blockTimeMs > 0) {
      if (!this.timer) this.armTimer();
    } else if (this.deps.mempool.size > 0) {
      this.schedule();
    }
  }
}
