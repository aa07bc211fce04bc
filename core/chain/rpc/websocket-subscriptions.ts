import WebSocket from 'ws';
import { NodeUnavailableError, type RpcEvent, type RpcSubscription } from './chain-rpc.js';
import { JSONRPC, backoff, displayUrl, isEventResult, positive, toRpcError, type HttpChainRpcOptions, type WebSocketReport } from './http-chain-rpc.js';

/** The one shared CometBFT WebSocket of an HttpChainRpc: subscriptions, replies, reconnect with re-subscribe. */
interface SubscriptionEntry {
  query: string;
  listeners: Set<(event: RpcEvent) => void>;
  /** The socket generation the `subscribe` for this query was sent on (-1: not sent). */
  generation: number;
  /** Settles with the node's reply to that `subscribe`. */
  ready: Promise<void> | null;
}

interface PendingReply {
  resolve(result: unknown): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * One WebSocket shared by every subscription. CometBFT refuses a second `subscribe` to the same
 * query from one client, so each query is subscribed once and fanned out to its listeners. After
 * an unexpected close the socket reconnects with backoff and re-subscribes every query; events
 * sent while it was down are lost (CometBFT has no replay — durable consumers use BDS cursors).
 */
export class WebSocketSubscriptions {
  private socket: WebSocket | null = null;
  private connecting: Promise<WebSocket> | null = null;
  private generation = 0;
  private readonly entries = new Map<string, SubscriptionEntry>();
  private readonly pending = new Map<number, PendingReply>();
  /** Request id → query, for events and cancellations that carry only the subscribe id. */
  private readonly queriesById = new Map<number, string>();
  private nextId = 1;
  private reconnectAttempt = 0;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private pingTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private readonly shownUrl: string;
  private readonly timeoutMs: number;

  constructor(
    private readonly url: string,
    private readonly headers: Record<string, string>,
    private readonly options: HttpChainRpcOptions,
  ) {
    this.shownUrl = displayUrl(new URL(url));
    this.timeoutMs = positive(options.subscribeTimeoutMs, 10_000, 'subscribeTimeoutMs');
  }

  async subscribe(query: string, listener: (event: RpcEvent) => void): Promise<RpcSubscription> {
    let entry = this.entries.get(query);
    if (!entry) {
      entry = { query, listeners: new Set(), generation: -1, ready: null };
      this.entries.set(query, entry);
    }
    const wrapped = (event: RpcEvent): void => listener(event); // a distinct identity per subscription
    entry.listeners.add(wrapped);
    try {
      await this.ensureSubscribed(entry, await this.open());
    } catch (err) {
      await this.removeListener(entry, wrapped, false);
      throw err;
    }
    let active = true;
    const subscribed = entry;
    return {
      unsubscribe: async () => {
        if (!active) return;
        active = false;
        await this.removeListener(subscribed, wrapped, true);
      },
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.entries.clear();
    await this.drop(1000, 'client closed');
  }

  private ensureSubscribed(entry: SubscriptionEntry, socket: WebSocket): Promise<void> {
    if (entry.generation !== this.generation || !entry.ready) {
      const generation = this.generation;
      entry.generation = generation;
      entry.ready = this.request(socket, 'subscribe', { query: entry.query }).then(() => undefined);
      entry.ready.catch(() => {
        if (entry.generation === generation) {
          entry.generation = -1;
          entry.ready = null;
        }
      });
    }
    return entry.ready;
  }

  private async removeListener(entry: SubscriptionEntry, listener: (event: RpcEvent) => void, tellNode: boolean): Promise<void> {
    entry.listeners.delete(listener);
    if (entry.listeners.size > 0 || this.entries.get(entry.query) !== entry) return;
    this.entries.delete(entry.query);
    for (const [id, query] of this.queriesById) if (query === entry.query) this.queriesById.delete(id);
    const socket = this.socket;
    if (tellNode && socket && entry.generation === this.generation && entry.ready) {
      // The node forgets the subscription with the socket anyway, so a failed reply is harmless.
      await this.request(socket, 'unsubscribe', { query: entry.query }).catch(() => undefined);
    }
    if (this.entries.size === 0 && this.pending.size === 0) await this.drop(1000, 'no subscriptions left');
  }

  private open(): Promise<WebSocket> {
    if (this.closed) return Promise.reject(new NodeUnavailableError(this.shownUrl, 'the client is closed'));
    if (this.socket?.readyState === WebSocket.OPEN) return Promise.resolve(this.socket);
    this.connecting ??= this.connect().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private connect(): Promise<WebSocket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(this.url, {
        headers: this.headers,
        handshakeTimeout: this.timeoutMs,
        perMessageDeflate: false,
      });
      ws.on('error', () => undefined); // ws closes the socket itself after a handshake error
      const onError = (err: Error): void => {
        ws.removeListener('open', onOpen);
        reject(new NodeUnavailableError(this.shownUrl, `WebSocket connection failed: ${err.message}`, { cause: err }));
      };
      const onOpen = (): void => {
        ws.removeListener('error', onError);
        if (this.closed) {
          ws.terminate();
          reject(new NodeUnavailableError(this.shownUrl, 'the client is closed'));
          return;
        }
        this.attach(ws);
        resolve(ws);
      };
      ws.once('error', onError);
      ws.once('open', onOpen);
    });
  }

  private attach(ws: WebSocket): void {
    this.socket = ws;
    this.generation++;
    this.queriesById.clear();
    this.reconnectAttempt = 0;
    let alive = true;
    ws.on('message', (data) => {
      alive = true;
      this.onMessage(String(data));
    });
    ws.on('pong', () => {
      alive = true;
    });
    ws.on('error', () => undefined); // 'close' follows and drives the reconnect
    ws.on('close', (code, reason) => this.onClose(ws, code, reason.toString()));
    const pingMs = this.options.pingIntervalMs ?? 20_000;
    if (pingMs > 0) {
      this.pingTimer = setInterval(() => {
        if (!alive) {
          ws.terminate();
          return;
        }
        alive = false;
        ws.ping();
      }, pingMs);
      this.pingTimer.unref();
    }
    this.report({ type: 'open', url: this.shownUrl });
    for (const entry of this.entries.values()) {
      this.ensureSubscribed(entry, ws).catch((error: Error) => {
        this.report({ type: 'resubscribe-failed', query: entry.query, error });
      });
    }
  }

  private request(socket: WebSocket, method: string, params: Record<string, unknown>): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new NodeUnavailableError(this.shownUrl, `no answer to ${method} within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      if (method === 'subscribe') this.queriesById.set(id, String(params.query));
      socket.send(JSON.stringify({ jsonrpc: JSONRPC, id, method, params }), (err) => {
        if (!err) return;
        clearTimeout(timer);
        this.pending.delete(id);
        reject(new NodeUnavailableError(this.shownUrl, `could not send ${method}: ${err.message}`, { cause: err }));
      });
    });
  }

  private onMessage(text: string): void {
    let msg: { id?: unknown; result?: any; error?: { code?: number; message?: string; data?: string } };
    try {
      msg = JSON.parse(text);
    } catch {
      return; // not JSON-RPC; nothing we could route it to
    }
    const id = typeof msg.id === 'number' ? msg.id : Number.NaN;
    const isEvent = isEventResult(msg.result);
    const pending = this.pending.get(id);
    if (pending && !isEvent) {
      this.pending.delete(id);
      clearTimeout(pending.timer);
      if (msg.error) pending.reject(toRpcError(msg.error));
      else pending.resolve(msg.result);
      return;
    }
    const query = isEvent && typeof msg.result.query === 'string' ? msg.result.query : this.queriesById.get(id);
    const entry = query === undefined ? undefined : this.entries.get(query);
    if (!entry) return;
    if (msg.error) {
      // "subscription was canceled (reason: client is not pulling messages fast enough)": subscribe again.
      this.report({ type: 'subscription-cancelled', query: entry.query, reason: toRpcError(msg.error).message });
      entry.generation = -1;
      entry.ready = null;
      if (this.socket) {
        this.ensureSubscribed(entry, this.socket).catch((error: Error) => {
          this.report({ type: 'resubscribe-failed', query: entry.query, error });
        });
      }
      return;
    }
    if (!isEvent) return;
    for (const listener of [...entry.listeners]) {
      try {
        listener(msg.result as RpcEvent);
      } catch (error) {
        this.report({ type: 'listener-failed', query: entry.query, error });
      }
    }
  }

  private onClose(ws: WebSocket, code: number, reason: string): void {
    if (ws !== this.socket) return;
    this.socket = null;
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = null;
    this.rejectPending(`the WebSocket closed (code ${code})`);
    this.report({ type: 'closed', code, reason });
    if (!this.closed && this.entries.size > 0) this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.reconnectTimer || this.closed) return;
    this.reconnectAttempt++;
    const delayMs = backoff(this.options.reconnectDelayMs ?? 250, this.reconnectAttempt, this.options.maxReconnectDelayMs ?? 10_000);
    this.report({ type: 'reconnecting', attempt: this.reconnectAttempt, delayMs });
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (this.closed || this.entries.size === 0) return;
      this.open().catch(() => this.scheduleReconnect());
    }, delayMs);
  }

  /** Closes the current socket on purpose (no reconnect). */
  private async drop(code: number, reason: string): Promise<void> {
    const ws = this.socket;
    this.socket = null;
    this.generation++;
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = null;
    this.rejectPending(reason);
    if (!ws || ws.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      const force = setTimeout(() => {
        ws.terminate();
        resolve();
      }, 1_000);
      ws.once('close', () => {
        clearTimeout(force);
        resolve();
      });
      ws.close(code, reason);
    });
  }

  private rejectPending(reason: string): void {
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(new NodeUnavailableError(this.shownUrl, reason));
      this.pending.delete(id);
    }
  }

  private report(event: WebSocketReport): void {
    try {
      this.options.onWebSocketEvent?.(event);
    } catch {
      // a reporting hook must not break the subscription machinery
    }
  }
}

// ---- helpers ---------------------------------------------------------------------------------

