import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { requestSync } from './sync-read.js';
import { ChainDatetime } from 'chainhost/chain';
import type { BlockEnv } from '../engine/types.js';
import { createDevnetExecutor } from './devnet-engine.js';
import { executePlanned, type PlannedTx, type TxExecution } from './finalize-block.js';
import { BlockOverlay } from './state-reader.js';
import type { TextStateReader } from './state-store.js';

/**
 * The block-execution worker thread: runs a block's planned transactions in the engine so the
 * node's event loop (RPC, tools, dashboard, GraphQL) keeps answering while a heavy transaction
 * runs. Committed state is read from the node synchronously (a read posts on `readPort`, blocks
 * on `flag` with Atomics.wait, takes the answer with receiveMessageOnPort), through a cache the
 * worker keeps coherent: committed state changes only by commits, and every job carries the
 * writes committed since the previous one (the block's own and the state patches'); a job whose
 * base height the cache does not match (a commit the worker was not told of) clears it.
 */
export interface BlockWorkerData {
  readPort: MessagePort;
  flag: SharedArrayBuffer;
  feeMode: 'paid_metered' | 'free_metered';
}

export interface BlockJob {
  id: number;
  env: { chainId: string; height: string; hash: string; nanos: string };
  /** Committed height the job runs on. */
  baseHeight: number;
  /** Commits since the previous job: `[height, writes]` in order. */
  committed: Array<[number, Array<[string, string | null]>]>;
  /** Writes of earlier transactions of this block (when it is re-run one transaction at a time). */
  pending: Array<[string, string | null]>;
  planned: PlannedTx[];
}

export type BlockReply =
  | { id: number; executions: TxExecution[]; times: Array<[string, number]> }
  | { id: number; error: string };

export type BlockReadRequest = { op: 'get'; key: string } | { op: 'keys'; prefix: string; after?: string; limit?: number };

const data = workerData as BlockWorkerData;
const flag = new Int32Array(data.flag);
const executor = createDevnetExecutor({ feeMode: data.feeMode });
const CACHE_LIMIT = 200_000;

function request(msg: BlockReadRequest): unknown {
  return requestSync(data.readPort, flag, msg);
}

/** Committed state as the node holds it, cached; `null` caches an absent key. */
class CommittedState implements TextStateReader {
  private readonly cache = new Map<string, string | null>();
  height = -1;

  get(key: string): string | undefined {
    let text = this.cache.get(key);
    if (text === undefined) {
      text = (request({ op: 'get', key }) as string | null) ?? null;
      if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
      this.cache.set(key, text);
    }
    return text ?? undefined;
  }

  keys(prefix: string, after?: string, limit?: number): string[] {
    return request({ op: 'keys', prefix, after, limit }) as string[];
  }

  /** Brings the cache to `job.baseHeight`: the commits it was told of, else a clean start. */
  sync(job: BlockJob): void {
    for (const [height, writes] of job.committed) {
      if (height !== this.height + 1) {
        this.cache.clear();
      } else {
        // Only keys already cached need the new value; others are read when needed.
        for (const [key, text] of writes) if (this.cache.has(key)) this.cache.set(key, text);
      }
      this.height = height;
    }
    if (this.height !== job.baseHeight) {
      this.cache.clear();
      this.height = job.baseHeight;
    }
  }
}

const committed = new CommittedState();

parentPort!.postMessage({ ready: true });

parentPort!.on('message', (job: BlockJob) => {
  try {
    committed.sync(job);
    const nanos = BigInt(job.env.nanos);
    const env: BlockEnv = { chainId: job.env.chainId, height: BigInt(job.env.height), hash: job.env.hash, nanos, now: ChainDatetime.fromNanos(nanos) };
    const overlay = new BlockOverlay(committed);
    for (const [key, text] of job.pending) overlay.set(key, text);
    const times: Array<[string, number]> = [];
    const executions = executePlanned(executor, overlay, env, job.planned, (scope, ms) => times.push([scope, ms]));
    parentPort!.postMessage({ id: job.id, executions, times } satisfies BlockReply);
  } catch (err) {
    // Outside any transaction's handling (every failure inside one is its receipt): the node decides.
    parentPort!.postMessage({ id: job.id, error: err instanceof Error ? err.message : String(err) } satisfies BlockReply);
  }
});
