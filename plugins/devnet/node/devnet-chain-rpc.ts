import { type AbciQueryParams, type ChainRpc, type DecodedAbciQuery, NodeUnavailableError, type RpcCallOptions, RpcError, type RpcEvent, type RpcSubscription } from 'chainhost/chain';
import { EventQueryError } from './event-query.js';
import { jsonText } from './json-text.js';
import type { DevnetRpc } from './devnet-rpc.js';
import type { EventBus } from './event-bus.js';

/**
 * The devnet as a `ChainRpc`, in process: calls go straight to the dispatcher (no HTTP, no
 * JSON), and results are deep-copied through JSON so a caller can never mutate the node's
 * stored blocks — and sees exactly what a remote client would parse. Subscriptions are fed by
 * the block producer through the event bus.
 */
let clientIds = 0;

/**
 * Methods whose result the node builds anew on every call from strings, numbers and null
 * (abci-query.ts `response`), so there is nothing shared to protect and the JSON form is the
 * value itself: the copy would only cost time on the hottest read.
 */
const FRESH_RESULTS: ReadonlySet<string> = new Set(['abci_query']);

export class DevnetChainRpc implements ChainRpc {
  private closed = false;
  private readonly subscriber = `in-process-${++clientIds}`;

  constructor(private readonly rpc: DevnetRpc, private readonly events: EventBus, private readonly url = 'devnet://in-process') {}

  async call<T = unknown>(method: string, params: Record<string, unknown> = {}, options: RpcCallOptions = {}): Promise<T> {
    if (this.closed) throw new NodeUnavailableError(this.url, 'the in-process devnet client is closed');
    options.signal?.throwIfAborted();
    const answer = this.rpc.handle(method, params);
    // An answer that is already there cannot be interrupted: no deadline, no abort listener.
    const result = answer instanceof Promise ? await withDeadline(answer, options) : answer;
    return (FRESH_RESULTS.has(method) ? result : JSON.parse(jsonText(result))) as T;
  }

  /** `abci_query` without the wire's base64 round trip: the node's answer, decoded (ChainRpc contract). */
  abciQueryDecoded(params: AbciQueryParams, options: RpcCallOptions = {}): Promise<DecodedAbciQuery> {
    if (this.closed) return Promise.reject(new NodeUnavailableError(this.url, 'the in-process devnet client is closed'));
    if (options.signal?.aborted) return Promise.reject(options.signal.reason);
    const answer = this.rpc.node.query.decoded(params);
    return answer instanceof Promise ? withDeadline(answer, options) : Promise.resolve(answer);
  }

  async subscribe(query: string, listener: (event: RpcEvent) => void): Promise<RpcSubscription> {
    if (this.closed) throw new NodeUnavailableError(this.url, `cannot subscribe to ${query}: the client is closed`);
    let sub;
    try {
      sub = this.events.subscribe(this.subscriber, query, (event) => {
        // Delivered after the block is committed, off the producer's stack, like a socket message.
        const copy = JSON.parse(JSON.stringify(event)) as RpcEvent;
        queueMicrotask(() => listener(copy));
      });
    } catch (err) {
      if (err instanceof EventQueryError) throw new RpcError(-32603, 'Internal error', err.message);
      throw err;
    }
    return { unsubscribe: async () => { this.events.unsubscribe(sub.id); } };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.events.unsubscribeAll(this.subscriber);
  }
}

function withDeadline<T>(work: Promise<T>, options: RpcCallOptions): Promise<T> {
  if (!options.timeoutMs && !options.signal) return work;
  return new Promise<T>((resolve, reject) => {
    const timer = options.timeoutMs ? setTimeout(() => reject(new NodeUnavailableError('devnet://in-process', `no answer within ${options.timeoutMs} ms`)), options.timeoutMs) : undefined;
    const onAbort = () => reject(options.signal!.reason ?? new Error('aborted'));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => {
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    });
  });
}
