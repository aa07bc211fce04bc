import { type ChainNode, decodeTxResultData, type JsonValue, type RpcSubscription, type TxEvent } from 'chainhost/chain';
import { toolJson } from 'chainhost/plugin';
import { nodeError } from './state-snapshot.js';

/**
 * `dex_wait_live_event`: a bounded wait on the node's `tm.event='Tx'` stream for contract
 * events. Low latency and no BDS needed, but not durable: there is no replay cursor, events
 * before the wait starts or during a disconnect are never seen. Consumers that must not miss
 * anything read `dex_list_events` with `after_id` as well (see docs in the tool description).
 */

export interface LiveEventFilters {
  /** Uppercase CometBFT tx hash. */
  txHash?: string;
  signer?: string;
  caller?: string;
}

export interface LiveEventItem {
  tx_hash: string;
  block_height: number;
  tx_index: number;
  event_index: number;
  contract: string;
  event: string;
  signer: string | null;
  caller: string | null;
  data_indexed: JsonValue;
  data: JsonValue;
}

export interface LiveWaitResult {
  timedOut: boolean;
  items: LiveEventItem[];
}

/** Events of one executed transaction that match. */
export function matchTxEvents(tx: TxEvent, contract: string, event: string, filters: LiveEventFilters): LiveEventItem[] {
  if (filters.txHash && tx.hash.toUpperCase() !== filters.txHash) return [];
  const decoded = decodeTxResultData(tx.result.data);
  if (decoded.kind !== 'execution' || decoded.output.status !== 0) return [];
  const out: LiveEventItem[] = [];
  decoded.output.events.forEach((e, i) => {
    if (e.contract !== contract || e.event !== event) return;
    if (filters.signer && e.signer !== filters.signer) return;
    if (filters.caller && e.caller !== filters.caller) return;
    out.push({
      tx_hash: tx.hash.toUpperCase(), block_height: Number(tx.height), tx_index: tx.index, event_index: i, contract: e.contract, event: e.event,
      signer: e.signer ?? null, caller: e.caller ?? null, data_indexed: toolJson(e.data_indexed ?? {}), data: toolJson(e.data ?? {}),
    });
  });
  return out;
}

/** Subscribes, collects up to `maxEvents` matching events or until `timeoutMs`, unsubscribes. */
export async function waitForLiveEvents(
  node: ChainNode,
  request: { contract: string; event: string; timeoutMs: number; maxEvents: number; filters: LiveEventFilters; signal?: AbortSignal; onSubscribed?: () => void },
): Promise<LiveWaitResult> {
  const items: LiveEventItem[] = [];
  let finish!: (timedOut: boolean) => void;
  const finished = new Promise<boolean>((resolve) => (finish = resolve));
  let subscription: RpcSubscription;
  try {
    subscription = await node.subscribeTxs((tx) => {
      if (items.length >= request.maxEvents) return;
      for (const item of matchTxEvents(tx, request.contract, request.event, request.filters)) {
        if (items.length < request.maxEvents) items.push(item);
      }
      if (items.length >= request.maxEvents) finish(false);
    });
  } catch (err) {
    throw nodeError(err);
  }
  request.onSubscribed?.();
  const timer = setTimeout(() => finish(true), request.timeoutMs);
  const onAbort = () => finish(true);
  request.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const timedOut = await finished;
    return { timedOut: timedOut && items.length < request.maxEvents, items };
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener('abort', onAbort);
    await subscription.unsubscribe().catch(() => undefined);
  }
}
