import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { requestSync } from './sync-read.js';
import { ChainDatetime, type ChainValue } from 'chainhost/chain';
import type { SignedTx, StateReader } from '../engine/types.js';
import { createDevnetExecutor } from './devnet-engine.js';
import { outcomeText, type SimulationPayload } from './simulate-request.js';
import { decodeStateText } from './state-reader.js';

/**
 * One dry-run worker thread (upstream runs each dry run in a subprocess). It executes with the
 * engine in simulate mode and reads committed state synchronously from the node: a read posts
 * `{job, op, …}` on `readPort`, blocks on `flag` with Atomics.wait, and takes the answer with
 * receiveMessageOnPort. The node can therefore kill a run that overstays its timeout.
 */
export interface SimulateWorkerData {
  readPort: MessagePort;
  flag: SharedArrayBuffer;
  feeMode: 'paid_metered' | 'free_metered';
}

export interface SimulateJob {
  id: number;
  payload: SimulationPayload;
  env: { chainId: string; height: string; hash: string; nanos: string };
  maxChi: number;
}

/** `outOfChi`: the run used up `simulation_max_chi` (counted as a chi_exhausted refusal). */
export type SimulateReply = { id: number; text: string; outOfChi: boolean } | { id: number; error: string };

export type ReadRequest =
  | { job: number; op: 'get'; key: string }
  | { job: number; op: 'keys'; prefix: string; after?: string; limit?: number };

const data = workerData as SimulateWorkerData;
const flag = new Int32Array(data.flag);
const executor = createDevnetExecutor({ feeMode: data.feeMode });

// Committed state does not change at one height, so reads are shared by the jobs of a height.
let cacheHeight = '';
const cache = new Map<string, string | null>();

function request(msg: ReadRequest): unknown {
  return requestSync(data.readPort, flag, msg);
}

class NodeState implements StateReader {
  constructor(private readonly job: number) {}

  get(key: string): ChainValue | undefined {
    let text = cache.get(key);
    if (text === undefined) {
      text = (request({ job: this.job, op: 'get', key }) as string | null) ?? null;
      if (cache.size > 20_000) cache.clear();
      cache.set(key, text);
    }
    return text === null ? undefined : decodeStateText(text);
  }

  keys(prefix: string, options?: { after?: string; limit?: number }): string[] {
    return request({ job: this.job, op: 'keys', prefix, after: options?.after, limit: options?.limit }) as string[];
  }
}

// Loaded (engine, compiler and VM): the simulator starts the run's timeout from here.
parentPort!.postMessage({ ready: true });

parentPort!.on('message', (job: SimulateJob) => {
  try {
    if (job.env.height !== cacheHeight) {
      cache.clear();
      cacheHeight = job.env.height;
    }
    const nanos = BigInt(job.env.nanos);
    const tx: SignedTx = {
      payload: {
        chain_id: job.env.chainId, chi_supplied: job.maxChi, contract: job.payload.contract, function: job.payload.function,
        kwargs: job.payload.kwargs, nonce: 0, sender: job.payload.sender,
      },
      signature: '',
      rawHex: '',
    };
    const env = { chainId: job.env.chainId, height: BigInt(job.env.height), hash: job.env.hash, nanos, now: ChainDatetime.fromNanos(nanos) };
    const state = new NodeState(job.id);
    const options = { simulate: { maxChi: job.maxChi } };
    let outcome = executor.execute(tx, env, state, options);
    let text: string;
    try {
      text = outcomeText(job.payload, outcome);
    } catch (err) {
      // A value the answer cannot encode: the dry run reports the failure a block would (charged).
      outcome = executor.failed(tx, state, outcome.chiUsed, err, options);
      text = outcomeText(job.payload, outcome);
    }
    const outOfChi = outcome.status === 1 && outcome.errorClass === 'ChiExceededError';
    parentPort!.postMessage({ id: job.id, text, outOfChi } satisfies SimulateReply);
  } catch (err) {
    // The JS text goes to the log only: an answer never carries the engine's internals.
    process.stderr.write(`devnet: dry run failed unexpectedly: ${err instanceof Error ? err.message : String(err)}\n`);
    parentPort!.postMessage({ id: job.id, error: 'internal error' } satisfies SimulateReply);
  }
});
