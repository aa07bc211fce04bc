import { MessageChannel, type MessagePort, type Worker } from 'node:worker_threads';
import { type CountRefusal, sha3Hex } from 'chainhost/chain';
import type { QueryAnswer } from 'chainhost/plugin';
import type { ChainStore } from './chain-store.js';
import type { NodeConfig } from './node-config.js';
import { decodeSimulationRequest, refusalText, type SimulationPayload } from './simulate-request.js';
import type { ReadRequest, SimulateJob, SimulateReply, SimulateWorkerData } from './simulate-worker.js';
import type { StateView } from './state-store.js';
import { startNodeWorker } from './worker-thread.js';

/**
 * `simulate_tx` admission and execution (simulate.md §3-4). Admission order: decode, enabled,
 * capacity (`simulation_max_concurrency` runs at once; more are refused, not queued), then the
 * run in a worker thread against a pinned view of committed state with the readonly chi cap
 * `simulation_max_chi`. A run past `simulation_timeout_ms` (wall clock) has its worker
 * terminated and is answered with the timeout refusal; writes are always discarded.
 */
export interface SimulationCounters {
  total: number;
  ok: number;
  failed: number;
  refused: { disabled: number; capacity: number; timeout: number; error: number };
}

/** Why the node refuses or aborts a dry run (simulate.md §3); chi_exhausted is a run that used up the cap. */
export type NodeRefusal = 'invalid_payload' | 'disabled' | 'capacity' | 'timeout' | 'error' | 'chi_exhausted';
export const NODE_REFUSALS: readonly NodeRefusal[] = ['invalid_payload', 'disabled', 'capacity', 'timeout', 'error', 'chi_exhausted'];

type RunResult = { kind: 'ok'; text: string; outOfChi: boolean } | { kind: 'timeout' } | { kind: 'error'; message: string };

interface PooledWorker {
  worker: Worker;
  port: MessagePort;
  flag: Int32Array;
  /**
   * Settles when the worker has loaded its modules (the contract compiler and VM): the run's
   * `simulation_timeout_ms` starts then, so a cold worker's start-up is not mistaken for a slow run.
   */
  ready: Promise<void>;
  job?: { id: number; view: StateView; finish(reply: SimulateReply | Error): void };
}

/** A worker that has not loaded within this long is treated as crashed (a bound on a hang, not on speed). */
const WORKER_START_TIMEOUT_MS = 120_000;

export class Simulator {
  private readonly idle: PooledWorker[] = [];
  private active = 0;
  private nextJob = 1;
  private closed = false;
  readonly counters: SimulationCounters = { total: 0, ok: 0, failed: 0, refused: { disabled: 0, capacity: 0, timeout: 0, error: 0 } };
  /** Told of every refusal and of runs that used up the chi cap (the host's refusal counter). */
  onRefusal: CountRefusal<NodeRefusal> = () => undefined;

  constructor(private readonly chainId: string, private readonly config: NodeConfig, private readonly store: ChainStore) {}

  get activeRuns(): number {
    return this.active;
  }

  async simulate(hex: string): Promise<QueryAnswer> {
    this.counters.total++;
    const answer = (text: string): QueryAnswer => ({ info: 'dict', text, key: hex });
    let payload: SimulationPayload;
    try {
      payload = decodeSimulationRequest(hex);
    } catch (err) {
      this.counters.refused.error++;
      this.onRefusal('invalid_payload');
      return answer(refusalText(null, `Simulation error: ${err instanceof Error ? err.message : String(err)}`));
    }
    if (!this.config.simulation_enabled) {
      this.counters.refused.disabled++;
      this.onRefusal('disabled');
      return answer(refusalText(payload, 'Simulation is disabled on this node'));
    }
    if (this.active >= this.config.simulation_max_concurrency || this.closed) {
      this.counters.refused.capacity++;
      this.onRefusal('capacity');
      return answer(refusalText(payload, 'Simulation capacity exceeded on this node; retry later'));
    }
    this.active++;
    try {
      const run = await this.run(payload);
      if (run.kind === 'timeout') {
        this.counters.refused.timeout++;
        this.onRefusal('timeout');
        return answer(refusalText(payload, `Simulation timed out on this node after ${this.config.simulation_timeout_ms} ms`));
      }
      if (run.kind === 'error') {
        this.counters.refused.error++;
        this.onRefusal('error');
        return answer(refusalText(payload, `Simulation error: ${run.message}`));
      }
      if (run.text.endsWith('"status":0}')) this.counters.ok++;
      else this.counters.failed++;
      if (run.outOfChi) this.onRefusal('chi_exhausted');
      return answer(run.text);
    } finally {
      this.active--;
    }
  }

  private run(payload: SimulationPayload): Promise<RunResult> {
    const pooled = this.idle.pop() ?? this.spawn();
    // Keep one loaded worker in reserve while more runs may start: a concurrent dry run then does not
    // wait for a cold worker to load the compiler and VM.
    if (this.idle.length === 0 && this.active < this.config.simulation_max_concurrency && !this.closed) this.idle.push(this.spawn());
    const view = this.store.state.view();
    const latest = this.store.latest();
    const height = String(view.height);
    const nanos = latest?.time_nanos ?? '0';
    const job: SimulateJob = {
      id: this.nextJob++,
      payload,
      env: {
        chainId: this.chainId,
        height,
        // No block is being finalized here, so the hash is upstream's derived one.
        hash: sha3Hex(`simulate:block:${this.chainId}:${height}:${nanos}`),
        nanos,
      },
      maxChi: Math.max(1, this.config.simulation_max_chi),
    };
    return new Promise<RunResult>((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const finish = (reply: SimulateReply | Error) => {
        if (!pooled.job) return;
        clearTimeout(timer);
        pooled.job = undefined;
        pooled.worker.unref();
        view.close();
        if (reply instanceof Error) {
          // Timed out or crashed: the worker may be mid-run, so it is killed, never reused.
          void pooled.worker.terminate();
          pooled.port.close();
          resolve(reply.message === 'timeout' ? { kind: 'timeout' } : { kind: 'error', message: reply.message });
          return;
        }
        if (!this.closed) this.idle.push(pooled);
        else void pooled.worker.terminate();
        resolve('text' in reply ? { kind: 'ok', text: reply.text, outOfChi: reply.outOfChi } : { kind: 'error', message: reply.error });
      };
      pooled.job = { id: job.id, view, finish };
      // A pending run keeps the process alive (an idle worker does not), also while the worker loads.
      pooled.worker.ref();
      const startup = setTimeout(() => finish(new Error('simulation worker did not start')), WORKER_START_TIMEOUT_MS);
      startup.unref();
      pooled.ready.then(() => {
        clearTimeout(startup);
        if (pooled.job?.id !== job.id) return;
        timer = setTimeout(() => finish(new Error('timeout')), this.config.simulation_timeout_ms);
        pooled.worker.postMessage(job);
      }, (err: unknown) => {
        clearTimeout(startup);
        finish(err instanceof Error ? err : new Error(String(err)));
      });
    });
  }

  private spawn(): PooledWorker {
    const { port1, port2 } = new MessageChannel();
    const flag = new SharedArrayBuffer(4);
    const data: SimulateWorkerData = { readPort: port2, flag, feeMode: this.config.tx_fee_mode };
    const worker = startNodeWorker('simulate-worker', data, [port2]);
    let started!: () => void;
    const ready = new Promise<void>((resolve) => { started = resolve; });
    const pooled: PooledWorker = { worker, port: port1, flag: new Int32Array(flag), ready };
    port1.on('message', (req: ReadRequest) => this.serveRead(pooled, req));
    worker.on('message', (reply: SimulateReply | { ready: true }) => {
      if ('ready' in reply) started();
      else pooled.job?.finish(reply);
    });
    worker.on('error', (err) => pooled.job?.finish(err instanceof Error ? err : new Error(String(err))));
    worker.on('exit', (code) => {
      pooled.job?.finish(new Error(`simulation worker exited with code ${code}`));
      const i = this.idle.indexOf(pooled);
      if (i >= 0) this.idle.splice(i, 1);
    });
    worker.unref();
    port1.unref();
    return pooled;
  }

  private serveRead(pooled: PooledWorker, req: ReadRequest): void {
    const view = pooled.job?.id === req.job ? pooled.job.view : undefined;
    let answer: unknown = null;
    if (view) answer = req.op === 'get' ? view.get(req.key) ?? null : view.keys(req.prefix, req.after, req.limit);
    pooled.port.postMessage(answer);
    Atomics.store(pooled.flag, 0, 1);
    Atomics.notify(pooled.flag, 0);
  }

  async close(): Promise<void> {
    this.closed = true;
    const workers = this.idle.splice(0);
    await Promise.all(workers.map((w) => w.worker.terminate()));
  }
}
