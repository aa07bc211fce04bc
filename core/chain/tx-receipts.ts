import { silentLogger, type Logger } from '../logger.js';
import { intValue, toolJson } from '../tools/chain-schemas.js';
import { decodeTxResultData } from './abci-value.js';
import type { JsonValue } from './canonical-json.js';
import type { ChainNode } from './node.js';
import type { RpcSubscription } from './rpc/chain-rpc.js';
import type { ExecTxResult } from './rpc/cometbft-types.js';

/**
 * Receipts of sent transactions: one shared `tm.event='Tx'` subscription for every wait on a
 * node, with polling `tx` by hash as the safety net (and the only way when the node cannot
 * stream). Interest in a hash is registered before the broadcast, so a block that beats the
 * broadcast's answer is not missed.
 */

/** One executed transaction, JSON-safe (decimals in state and events are strings). */
export interface TxReceipt {
  tx_hash: string;
  height: number | string;
  index: number;
  /** Execution status 0 and code 0. */
  success: boolean;
  status_code: number;
  chi_used: number | string | null;
  /** The contract's return value as the node's repr text (`None`, `5`, `'abc'`), or the error. */
  result: string | null;
  events: JsonValue[];
  state: Array<{ key: string; value: JsonValue }>;
  /** SHA3-256 execution hash (not the CometBFT hash). */
  execution_hash: string | null;
  /** Why a failed or rejected transaction failed. */
  error: string | null;
  log: string;
}

/** A receipt from `tx` (ResultTx) or a Tx event: code, execution output, events, writes. */
export function txReceiptOf(tx: { hash: string; height: string | number; index?: number; tx_result: ExecTxResult }): TxReceipt {
  const decoded = decodeTxResultData(tx.tx_result.data);
  const height = intValue(BigInt(tx.height));
  const common = { tx_hash: tx.hash.toUpperCase(), height, index: tx.index ?? 0, status_code: tx.tx_result.code, log: tx.tx_result.log ?? '' };
  if (decoded.kind === 'execution') {
    const out = decoded.output;
    const success = tx.tx_result.code === 0 && out.status === 0;
    return {
      ...common,
      success,
      chi_used: out.chi_used === null ? null : intValue(out.chi_used),
      result: out.result,
      events: out.events.map((e) => toolJson(e)),
      state: out.state.map((s) => ({ key: s.key, value: toolJson(s.value) })),
      execution_hash: out.hash,
      error: success ? null : out.result ?? (tx.tx_result.log || 'execution failed'),
    };
  }
  const error = decoded.kind === 'rejected' ? decoded.error : tx.tx_result.code === 0 ? null : tx.tx_result.log || `code ${tx.tx_result.code}`;
  return {
    ...common,
    success: tx.tx_result.code === 0 && decoded.kind !== 'rejected',
    chi_used: null,
    result: null,
    events: [],
    state: [],
    execution_hash: null,
    error,
  };
}

export interface TxReceiptsOptions {
  /** Polling interval for a transaction while waiting without a subscription (default 250 ms). */
  pollIntervalMs?: number;
  log?: Logger;
}

/** Interest in one transaction's receipt, registered before its broadcast. */
export interface ExpectedReceipt {
  /** The receipt once the transaction is in a block; null after `timeoutMs`, an abort or `close`. */
  wait(timeoutMs: number, signal?: AbortSignal): Promise<TxReceipt | null>;
  /** Drops the interest (the broadcast failed). */
  cancel(): void;
}

interface Waiter {
  resolve(receipt: TxReceipt): void;
}

export class TxReceipts {
  private readonly waiters = new Map<string, Set<Waiter>>();
  private subscription: Promise<RpcSubscription | null> | null = null;
  /** The Tx subscription is live: waits poll only as a safety net. */
  private streaming = false;
  private closed = false;
  private readonly log: Logger;

  constructor(private readonly node: ChainNode, private readonly options: TxReceiptsOptions = {}) {
    this.log = options.log ?? silentLogger;
  }

  /** The shared Tx subscription, opened on first use; null when the node cannot stream (then polling alone). */
  subscribe(): Promise<RpcSubscription | null> {
    this.subscription ??= this.node
      .subscribeTxs((event) => {
        const waiting = this.waiters.get(event.hash);
        if (!waiting) return;
        const receipt = txReceiptOf({ hash: event.hash, height: event.height, index: event.index, tx_result: event.result });
        for (const w of waiting) w.resolve(receipt);
      })
      .then((sub) => {
        this.streaming = !this.closed;
        return sub;
      })
      .catch((err: unknown) => {
        this.log.debug('no Tx subscription; waiting for transactions by polling', { reason: err instanceof Error ? err.message : String(err) });
        return null;
      });
    return this.subscription;
  }

  /** Registers interest in a hash; call before broadcasting it. */
  expect(hash: string): ExpectedReceipt {
    let settle!: (receipt: TxReceipt | null) => void;
    const done = new Promise<TxReceipt | null>((resolve) => (settle = resolve));
    const waiter: Waiter = { resolve: (r) => settle(r) };
    let set = this.waiters.get(hash);
    if (!set) this.waiters.set(hash, (set = new Set()));
    set.add(waiter);
    const remove = () => {
      const s = this.waiters.get(hash);
      s?.delete(waiter);
      if (s && s.size === 0) this.waiters.delete(hash);
    };
    return {
      cancel: remove,
      wait: async (timeoutMs, signal) => {
        const streaming = this.streaming;
        const interval = streaming ? Math.max(1_000, this.options.pollIntervalMs ?? 250) : this.options.pollIntervalMs ?? 250;
        const deadline = performance.now() + timeoutMs;
        let timer: NodeJS.Timeout | undefined;
        const poll = async (): Promise<void> => {
          const receipt = await this.lookup(hash, signal);
          if (receipt) return settle(receipt);
          const left = deadline - performance.now();
          if (left <= 0 || signal?.aborted || this.closed) return settle(null);
          timer = setTimeout(() => void poll(), Math.min(interval, left));
        };
        timer = setTimeout(() => void poll(), streaming ? interval : Math.min(50, interval));
        const onAbort = () => settle(null);
        signal?.addEventListener('abort', onAbort, { once: true });
        try {
          return await done;
        } finally {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          remove();
        }
      },
    };
  }

  /** Ends the subscription; waits in flight end without a receipt at their next poll. */
  async close(): Promise<void> {
    this.closed = true;
    this.streaming = false;
    const sub = await this.subscription?.catch(() => null);
    this.subscription = null;
    await sub?.unsubscribe().catch(() => undefined);
  }

  /** The receipt of a committed transaction, or null while it is not (yet) in a block. */
  private async lookup(hash: string, signal?: AbortSignal): Promise<TxReceipt | null> {
    try {
      const tx = await this.node.tx(hash, { signal });
      return txReceiptOf(tx);
    } catch {
      return null; // "not found" until indexed; transport errors: the next poll retries
    }
  }
}
