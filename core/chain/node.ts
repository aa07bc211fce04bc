import { createHash } from 'node:crypto';
import { decodeAbciQuery, type DecodedAbciQuery } from './abci-value.js';
import type { AbciQueryParams, ChainRpc, RpcCallOptions, RpcEvent, RpcSubscription } from './rpc/chain-rpc.js';
import {
  NEW_BLOCK_QUERY,
  TX_QUERY,
  type ExecTxResult,
  type NewBlockEventValue,
  type ResultAbciQuery,
  type ResultBlock,
  type ResultBlockResults,
  type ResultBlockchainInfo,
  type ResultBroadcastTx,
  type ResultBroadcastTxCommit,
  type ResultConsensusState,
  type ResultGenesis,
  type ResultHealth,
  type ResultNetInfo,
  type ResultNumUnconfirmedTxs,
  type ResultStatus,
  type ResultTx,
  type ResultUnconfirmedTxs,
  type ResultValidators,
  type TxEventValue,
} from './rpc/cometbft-types.js';

export type Height = number | bigint | string;

export interface AbciQueryOptions extends RpcCallOptions {
  /** 0 (default) or exactly the latest committed height (abci-query.md §1.1). */
  height?: Height;
  /** Must stay false: chainhost nodes refuse proofs. */
  prove?: boolean;
  /** Hex bytes (unused by this application). */
  data?: string;
}

/** A `tm.event='Tx'` event, flattened. */
export interface TxEvent {
  /** CometBFT tx hash, uppercase hex (from the event's `tx.hash`, else computed). */
  hash: string;
  height: string;
  /** Position in the block (CometBFT omits 0; filled in here). */
  index: number;
  /** Base64 of the raw tx bytes (decode with `decodeRawTx`). */
  tx: string;
  result: ExecTxResult;
}

/**
 * The node service every plugin shares: typed CometBFT 0.38 methods over any `ChainRpc` (the
 * HTTP/WebSocket client, or the devnet in-process). It only uses `call` and `subscribe`, and it
 * sends params in the JSON-RPC form, which both transports must accept:
 *
 * | param kind | JSON-RPC form sent here | (URI form, for comparison) |
 * |---|---|---|
 * | Go int/int64 (`height`, `minHeight`, `maxHeight`, `page`, `per_page`, `limit`) | decimal string `"42"` — cmtjson rejects bare numbers for 64-bit ints | `height=42` |
 * | `[]byte` (`tx` of broadcast_tx_*, `hash` of tx) | base64 of the bytes | `tx="<hex>"` (literal text) / `hash=0x<HEX>` |
 * | `HexBytes` (`data` of abci_query) | hex string, `""` when empty | `data=0x…` |
 * | string (`path`, `query`) | JSON string | `path="…"` |
 * | bool (`prove`) | `true` / `false` | `prove=false` |
 */
export class ChainNode {
  private chainIdCache: Promise<string> | null = null;

  constructor(readonly rpc: ChainRpc) {}

  status(options?: RpcCallOptions): Promise<ResultStatus> {
    return this.rpc.call<ResultStatus>('status', {}, options);
  }

  /** The chain id (`status().node_info.network`), fetched once; a failed fetch is retried next time. */
  chainId(options?: RpcCallOptions): Promise<string> {
    this.chainIdCache ??= this.status(options).then(
      (s) => s.node_info.network,
      (err: unknown) => {
        this.chainIdCache = null;
        throw err;
      },
    );
    return this.chainIdCache;
  }

  health(options?: RpcCallOptions): Promise<ResultHealth> {
    return this.rpc.call<ResultHealth>('health', {}, options);
  }

  /**
   * Not `async`, like `query`: an async function handing back the RPC's promise costs two more
   * microtask turns, and this is the path of every state read. Bad arguments still reject.
   */
  abciQuery(path: string, options: AbciQueryOptions = {}): Promise<ResultAbciQuery> {
    let params: Record<string, unknown>;
    try {
      const data = hexData(options.data);
      params = { path, data, height: int64(options.height ?? 0, 'height', 0n), prove: options.prove ?? false };
    } catch (err) {
      return Promise.reject(err);
    }
    return this.rpc.call<ResultAbciQuery>('abci_query', params, callOptions(options));
  }

  /**
   * `abciQuery` decoded (key text, value text, JSON for dict/list, `AA==` → null). Does not throw
   * on code ≠ 0. A node in this process answers it without the base64 round trip.
   */
  query(path: string, options: AbciQueryOptions = {}): Promise<DecodedAbciQuery> {
    if (!this.rpc.abciQueryDecoded) return this.abciQuery(path, options).then(decodeAbciQuery);
    let params: AbciQueryParams;
    try {
      params = abciQueryParams(path, options);
    } catch (err) {
      return Promise.reject(err);
    }
    return this.rpc.abciQueryDecoded(params, callOptions(options));
  }

  /** The block at `height`, or the latest. */
  async block(height?: Height, options?: RpcCallOptions): Promise<ResultBlock> {
    return this.rpc.call<ResultBlock>('block', heightParam(height), options);
  }

  /**
   * The block with this hash (64 hex, with or without `0x`, any case); `block` is null when the
   * node has none. `hash` is a Go `[]byte` param: base64 of the 32 bytes, as for `tx`.
   */
  async blockByHash(hash: string, options?: RpcCallOptions): Promise<ResultBlock> {
    return this.rpc.call<ResultBlock>('block_by_hash', { hash: txHashBase64(hash) }, options);
  }

  async blockResults(height?: Height, options?: RpcCallOptions): Promise<ResultBlockResults> {
    return this.rpc.call<ResultBlockResults>('block_results', heightParam(height), options);
  }

  /** Block metas in `[minHeight, maxHeight]`, highest first, at most 20 (omitted bounds: the latest 20). */
  async blockchain(minHeight?: Height, maxHeight?: Height, options?: RpcCallOptions): Promise<ResultBlockchainInfo> {
    const params: Record<string, string> = {};
    if (minHeight !== undefined) params.minHeight = int64(minHeight, 'minHeight', 0n);
    if (maxHeight !== undefined) params.maxHeight = int64(maxHeight, 'maxHeight', 0n);
    return this.rpc.call<ResultBlockchainInfo>('blockchain', params, options);
  }

  /**
   * A transaction by its CometBFT hash (64 hex, with or without `0x`, any case). `hash` is a Go
   * `[]byte` param, so the JSON-RPC form carries base64 of the 32 hash bytes (the URI form's
   * `hash=0x<HEX>` names the same bytes). Unknown hash → RpcError `tx (<HASH>) not found`.
   */
  async tx(hash: string, options: RpcCallOptions & { prove?: boolean } = {}): Promise<ResultTx> {
    return this.rpc.call<ResultTx>('tx', { hash: txHashBase64(hash), prove: options.prove ?? false }, callOptions(options));
  }

  /**
   * Broadcast a signed tx given as the lowercase hex of its canonical JSON (transactions.md §4).
   * The raw CometBFT tx bytes are the ASCII characters of that hex, so the `tx` param is base64 of
   * the hex text (the URI form would send `tx="<hex>"`). Never retried by the HTTP client.
   */
  async broadcastTxSync(txHex: string, options?: RpcCallOptions): Promise<ResultBroadcastTx> {
    return this.rpc.call<ResultBroadcastTx>('broadcast_tx_sync', { tx: rawTxParam(txHex) }, options);
  }

  async broadcastTxAsync(txHex: string, options?: RpcCallOptions): Promise<ResultBroadcastTx> {
    return this.rpc.call<ResultBroadcastTx>('broadcast_tx_async', { tx: rawTxParam(txHex) }, options);
  }

  /**
   * Development only: waits for the block. The node gives up after its own
   * `timeout_broadcast_tx_commit` (10 s by default), so our deadline defaults to 30 s, not 10 s.
   */
  async broadcastTxCommit(txHex: string, options: RpcCallOptions = {}): Promise<ResultBroadcastTxCommit> {
    return this.rpc.call<ResultBroadcastTxCommit>('broadcast_tx_commit', { tx: rawTxParam(txHex) }, { signal: options.signal, timeoutMs: options.timeoutMs ?? 30_000 });
  }

  netInfo(options?: RpcCallOptions): Promise<ResultNetInfo> {
    return this.rpc.call<ResultNetInfo>('net_info', {}, options);
  }

  async validators(height?: Height, page: { page?: number; perPage?: number } = {}, options?: RpcCallOptions): Promise<ResultValidators> {
    const params: Record<string, string> = heightParam(height);
    if (page.page !== undefined) params.page = int64(page.page, 'page', 1n);
    if (page.perPage !== undefined) params.per_page = int64(page.perPage, 'perPage', 1n);
    return this.rpc.call<ResultValidators>('validators', params, options);
  }

  consensusState(options?: RpcCallOptions): Promise<ResultConsensusState> {
    return this.rpc.call<ResultConsensusState>('consensus_state', {}, options);
  }

  /** Mempool txs (base64 raw bytes); `limit` defaults to 30 on the node, max 100. */
  async unconfirmedTxs(limit?: number, options?: RpcCallOptions): Promise<ResultUnconfirmedTxs> {
    return this.rpc.call<ResultUnconfirmedTxs>('unconfirmed_txs', limit === undefined ? {} : { limit: int64(limit, 'limit', 1n) }, options);
  }

  numUnconfirmedTxs(options?: RpcCallOptions): Promise<ResultNumUnconfirmedTxs> {
    return this.rpc.call<ResultNumUnconfirmedTxs>('num_unconfirmed_txs', {}, options);
  }

  genesis(options?: RpcCallOptions): Promise<ResultGenesis> {
    return this.rpc.call<ResultGenesis>('genesis', {}, options);
  }

  /** `tm.event='NewBlock'`. Best effort: events missed during a reconnect are not replayed. */
  subscribeNewBlocks(listener: (block: NewBlockEventValue, event: RpcEvent) => void): Promise<RpcSubscription> {
    return this.rpc.subscribe(NEW_BLOCK_QUERY, (event) => listener(event.data.value as NewBlockEventValue, event));
  }

  /** `tm.event='Tx'`, one event per executed transaction. Best effort, like `subscribeNewBlocks`. */
  subscribeTxs(listener: (tx: TxEvent, event: RpcEvent) => void): Promise<RpcSubscription> {
    return this.rpc.subscribe(TX_QUERY, (event) => {
      const r = (event.data.value as TxEventValue).TxResult;
      const hash = event.events?.['tx.hash']?.[0] ?? sha256Upper(r.tx);
      listener({ hash, height: String(r.height), index: r.index ?? 0, tx: r.tx, result: r.result }, event);
    });
  }

  close(): Promise<void> {
    return this.rpc.close();
  }
}

/** Normalises a CometBFT tx hash: strips `0x`, checks 64 hex digits, returns uppercase hex. */
export function normalizeTxHash(hash: string): string {
  const hex = hash.trim().replace(/^0x/i, '');
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) {
    throw new TypeError(`a tx hash is 64 hex digits (SHA-256 of the raw tx bytes), optionally 0x-prefixed; got ${JSON.stringify(hash.slice(0, 80))}`);
  }
  return hex.toUpperCase();
}

/** The CometBFT hash of a tx given as its hex text: uppercase SHA-256 of the ASCII hex characters. */
export function txHashOfHex(txHex: string): string {
  return createHash('sha256').update(Buffer.from(checkTxHex(txHex), 'latin1')).digest('hex').toUpperCase();
}

function txHashBase64(hash: string): string {
  return Buffer.from(normalizeTxHash(hash), 'hex').toString('base64');
}

function rawTxParam(txHex: string): string {
  return Buffer.from(checkTxHex(txHex), 'latin1').toString('base64');
}

function checkTxHex(txHex: string): string {
  if (typeof txHex !== 'string' || txHex.length === 0 || txHex.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(txHex)) {
    throw new TypeError(
      `a transaction to broadcast is the hex of its canonical JSON (even length, 0-9a-f, no 0x); got ${txHex?.length ?? 0} characters starting ${JSON.stringify(String(txHex).slice(0, 16))}`,
    );
  }
  return txHex;
}

function heightParam(height: Height | undefined): Record<string, string> {
  return height === undefined ? {} : { height: int64(height, 'height', 1n) };
}

function int64(value: Height, name: string, min: bigint): string {
  // Safe integers are far below 2^63; only the lower bound needs checking (height 0 on every query).
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= Number(min)) return String(value);
  let n: bigint;
  if (typeof value === 'bigint') n = value;
  else if (typeof value === 'number' && Number.isSafeInteger(value)) n = BigInt(value);
  else if (typeof value === 'string' && /^-?[0-9]+$/.test(value.trim())) n = BigInt(value.trim());
  else throw new TypeError(`${name} must be an integer, got ${JSON.stringify(String(value))}`);
  if (n < min || n > 9_223_372_036_854_775_807n) throw new RangeError(`${name} must be an integer from ${min} to 2^63-1, got ${n}`);
  return n.toString();
}

/** The checked arguments of an in-process `abci_query` (`data` must still be hex; this application ignores it). */
function abciQueryParams(path: string, options: AbciQueryOptions): AbciQueryParams {
  hexData(options.data);
  return { path, height: Number(int64(options.height ?? 0, 'height', 0n)), prove: options.prove ?? false };
}

function hexData(data = ''): string {
  if (!/^([0-9a-fA-F]{2})*$/.test(data)) throw new TypeError(`abci_query data must be hex bytes, got ${JSON.stringify(data.slice(0, 40))}`);
  return data;
}

function callOptions(options: RpcCallOptions): RpcCallOptions {
  return { signal: options.signal, timeoutMs: options.timeoutMs };
}

function sha256Upper(base64: string): string {
  return createHash('sha256').update(Buffer.from(base64, 'base64')).digest('hex').toUpperCase();
}
