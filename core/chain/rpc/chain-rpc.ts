import type { DecodedAbciQuery } from '../abci-value.js';

/**
 * The one transport-neutral way to talk to a CometBFT-shaped node: a JSON-RPC method call with
 * named params (as the JSON-RPC form sends them: int64 values as decimal strings, bytes as
 * base64/hex text exactly like CometBFT), plus event subscriptions. The HTTP/WebSocket client
 * and the devnet's in-process node both implement it, so `ChainNode` works unchanged on either.
 */
export interface ChainRpc {
  /** Resolves with the JSON-RPC `result`; rejects with RpcError for a JSON-RPC error, NodeUnavailableError when unreachable. */
  call<T = unknown>(method: string, params?: Record<string, unknown>, options?: RpcCallOptions): Promise<T>;
  /**
   * Optional, for a node in this process (the devnet): `abci_query` answered already decoded,
   * skipping the base64 round trip of key and value. It must equal
   * `decodeAbciQuery(await call('abci_query', …))` for the same arguments; `ChainNode.query`
   * uses it when present.
   */
  abciQueryDecoded?(params: AbciQueryParams, options?: RpcCallOptions): Promise<DecodedAbciQuery>;
  /** CometBFT event query, e.g. `tm.event='NewBlock'` or `tm.event='Tx'`. Resolves once subscribed. */
  subscribe(query: string, listener: (event: RpcEvent) => void): Promise<RpcSubscription>;
  close(): Promise<void>;
}

/** `abci_query` arguments, already checked (height an integer, data hex). */
export interface AbciQueryParams {
  path: string;
  height: number;
  prove: boolean;
}

export interface RpcCallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** The `result` of a CometBFT subscription message: `{query, data: {type, value}, events}`. */
export interface RpcEvent {
  query: string;
  data: { type: string; value: any };
  events?: Record<string, string[]>;
}

export interface RpcSubscription {
  unsubscribe(): Promise<void>;
}

/** A JSON-RPC error answered by the node (CometBFT: code -32603 "Internal error" with `data`). */
export class RpcError extends Error {
  constructor(readonly code: number, message: string, readonly data?: string) {
    super(data ? `${message}: ${data}` : message);
    this.name = 'RpcError';
  }
}

/** The node could not be reached or did not answer in time. */
export class NodeUnavailableError extends Error {
  constructor(readonly url: string, reason: string, options?: ErrorOptions) {
    super(`node at ${url} is unavailable: ${reason}`, options);
    this.name = 'NodeUnavailableError';
  }
}
