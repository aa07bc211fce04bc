import { MessageChannel, type MessagePort, type Worker } from 'node:worker_threads';
import { startModuleWorker, type Logger } from 'chainhost/plugin';
import type { BlockEnv } from '../engine/types.js';
import type { BlockJob, BlockReadRequest, BlockReply, BlockWorkerData } from './block-worker.js';
import { encodeExecution, executePlanned, type PlannedTx, type TxExecution, type TxExecutor } from './finalize-block.js';
import { BlockOverlay, DecodingStateReader } from './state-reader.js';
import type { TextStateReader } from './state-store.js';

/**
 * Runs blocks' transactions in the block-execution worker thread (block-worker.ts) and answers
 * its state reads from the committed store. The node's event loop stays free while a block
 * executes: only the reads it serves and the block's commit run on it. Until the worker has
 * loaded at start-up, blocks execute in-thread (the same `executePlanned`, so the same results).
 *
 * If the worker dies mid-block (a crash, or its heap limit `EXECUTION_WORKER_HEAP_MB` reached),
 * it is restarted and the block's transactions are run again one at a time, each in a job of
 * its own over the writes of those before it; the one whose job kills the worker again fails
 * charged its whole `chi_supplied` (what it ran is unknown), nonce consumed, with the VM's
 * allocation-limit text — nothing is refused silently. Crashes are counted for `/health` and
 * the metrics.
 */
export const EXECUTION_WORKER_HEAP_MB = 2048;

interface Pending {
  id: number;
  resolve(reply: BlockReply): void;
  reject(err: Error): void;
}

interface Running {
  worker: Worker;
  port: MessagePort;
  flag: Int32Array;
  ready: Promise<void>;
  job?: Pending;
}

export interface ExecutionWorkerStatus {
  /** Worker exits while executing a block (each followed by a restart). */
  crashes: number;
  /** The last crash's reason and time (epoch ms). */
  lastCrash?: { reason: string; at: number };
  /** Whether a worker is running now. */
  running: boolean;
}

export class BlockExecutor {
  private current: Running | undefined;
  private nextJob = 1;
  /** Commits since the last job, for the worker's cache. */
  private committedSince: Array<[number, Array<[string, string | null]>]> = [];
  private closed = false;
  readonly status: ExecutionWorkerStatus = { crashes: 0, running: false };

  constructor(
    private readonly feeMode: 'paid_metered' | 'free_metered',
    private readonly state: TextStateReader,
    /** The in-thread engine, for the charged failure of a transaction that kills the worker. */
    private readonly executor: TxExecutor,
    private readonly logger: Logger,
  ) {}

  /** Starts the worker ahead of the first block with transactions (it loads the engine, compiler and VM). */
  warm(): void {
    if (!this.current && !this.closed) this.spawn();
  }

  /** A block was committed with these writes (every one: transactions and state patches). */
  committed(height: number, writes: ReadonlyMap<string, string | null>): void {
    this.committedSince.push([height, [...writes]]);
    // A worker that has been idle for many blocks re-reads what it needs rather than replaying all of them.
    if (this.committedSince.length > 64) this.committedSince = [];
  }

  /**
   * Executes `planned` in order over committed state (+ `pending`) and returns each one's
   * execution; `time` receives the worker's perf records.
   */
  async execute(env: BlockEnv, planned: PlannedTx[], time: (scope: string, ms: number) => void): Promise<TxExecution[]> {
    if (planned.length === 0) return [];
    if (!this.status.running && this.status.crashes === 0) {
      // Start-up only: until the worker has loaded the engine (seconds when running from
      // TypeScript sources), blocks execute in-thread with the same code over the same state.
      this.committedSince = [];
      return executePlanned(this.executor, new BlockOverlay(this.state), env, planned, time);
    }
    try {
      return await this.run(env, planned, [], time);
    } catch (err) {
      if (!(err instanceof WorkerDied)) throw err;
      return this.isolate(env, planned, time);
    }
  }

  /** After a crash: one job per transaction, so the one that kills the worker is known and charged. */
  private async isolate(env: BlockEnv, planned: PlannedTx[], time: (scope: string, ms: number) => void): Promise<TxExecution[]> {
    const overlay = new BlockOverlay(this.state);
    const executions: TxExecution[] = [];
    for (const p of planned) {
      let execution: TxExecution;
      try {
        execution = (await this.run(env, [p], [...overlay.writes], time))[0]!;
      } catch (err) {
        if (!(err instanceof WorkerDied)) throw err;
        this.logger.error('a transaction stopped the block-execution worker; it fails charged its chi_supplied', { tx: p.executionHash, reason: err.message });
        const reader = new DecodingStateReader(overlay);
        execution = encodeExecution(this.executor.failed(p.tx, reader, p.tx.payload.chi_supplied, new RangeError(err.message)), p);
      }
      for (const [key, text] of execution.writes) overlay.set(key, text);
      executions.push(execution);
    }
    return executions;
  }

  private async run(env: BlockEnv, planned: PlannedTx[], pending: Array<[string, string | null]>, time: (scope: string, ms: number) => void): Promise<TxExecution[]> {
    if (this.closed) throw new Error('the devnet is shutting down');
    const running = this.current ?? this.spawn();
    await running.ready;
    const job: BlockJob = {
      id: this.nextJob++,
      env: { chainId: env.chainId, height: String(env.height), hash: env.hash, nanos: String(env.nanos) },
      baseHeight: this.state.height,
      committed: this.committedSince,
      pending,
      planned,
    };
    this.committedSince = [];
    const reply = await new Promise<BlockReply>((resolve, reject) => {
      running.job = { id: job.id, resolve, reject };
      running.worker.ref();
      running.worker.postMessage(job);
    });
    running.job = undefined;
    running.worker.unref();
    if ('error' in reply) throw new Error(`block execution failed: ${reply.error}`);
    for (const [scope, ms] of reply.times) time(scope, ms);
    return reply.executions;
  }

  private spawn(): Running {
    const { port1, port2 } = new MessageChannel();
    const flag = new SharedArrayBuffer(4);
    const data: BlockWorkerData = { readPort: port2, flag, feeMode: this.feeMode };
    const worker = startModuleWorker(import.meta.url, './block-worker', {
      workerData: data,
      transferList: [port2],
      resourceLimits: { maxOldGenerationSizeMb: EXECUTION_WORKER_HEAP_MB },
    });
    let started!: () => void;
    let failed!: (err: Error) => void;
    const ready = new Promise<void>((resolve, reject) => { started = resolve; failed = reject; });
    ready.catch(() => undefined);
    const running: Running = { worker, port: port1, flag: new Int32Array(flag), ready };
    port1.on('message', (req: BlockReadRequest) => this.serveRead(running, req));
    worker.on('message', (msg: BlockReply | { ready: true }) => {
      if ('ready' in msg) {
        this.status.running = true;
        started();
      } else if (running.job?.id === msg.id) running.job.resolve(msg);
    });
    worker.on('error', (err) => this.died(running, err.message, failed));
    worker.on('exit', (code) => this.died(running, `exited with code ${code}`, failed));
    worker.unref();
    port1.unref();
    this.current = running;
    return running;
  }

  private died(running: Running, reason: string, failed: (err: Error) => void): void {
    if (this.current !== running) return;
    this.current = undefined;
    this.status.running = false;
    running.port.close();
    failed(new WorkerDied(reason));
    const job = running.job;
    running.job = undefined;
    if (!this.closed) {
      this.status.crashes++;
      this.status.lastCrash = { reason, at: Date.now() };
      this.logger.error('the block-execution worker died; restarting it', { reason, during_block: job !== undefined });
    }
    job?.reject(new WorkerDied(reason));
    // Restarted at once, so the next block finds it loaded; /health fails until it is.
    if (!this.closed) this.spawn();
  }

  private serveRead(running: Running, req: BlockReadRequest): void {
    const answer = req.op === 'get' ? this.state.get(req.key) ?? null : this.state.keys(req.prefix, req.after, req.limit);
    running.port.postMessage(answer);
    Atomics.store(running.flag, 0, 1);
    Atomics.notify(running.flag, 0);
  }

  async close(): Promise<void> {
    this.closed = true;
    const running = this.current;
    if (!running) return;
    await running.worker.terminate();
    // Settles a job in flight (the exit event does the same; whichever comes first).
    this.died(running, 'the devnet is shutting down', () => undefined);
  }
}

/** The worker thread ended while a job was in flight. */
class WorkerDied extends Error {
  constructor(reason: string) {
    super(`the block-execution worker died (${reason})`);
    this.name = 'WorkerDied';
  }
}
