import http from 'node:http';
import https from 'node:https';
import {
  NodeUnavailableError,
  RpcError,
  type ChainRpc,
  type RpcCallOptions,
  type RpcEvent,
  type RpcSubscription,
} from './chain-rpc.js';
import { WebSocketSubscriptions } from './websocket-subscriptions.js';

/**
 * Methods that only read, so a retry after a connection error, a 5xx or a timeout cannot change
 * anything on the node. Everything else — above all `broadcast_tx_*`, whose retry could submit
 * a transaction twice or hide that the first attempt landed — is sent exactly once.
 */
export const IDEMPOTENT_RPC_METHODS: ReadonlySet<string> = new Set([
  'status', 'health', 'net_info', 'genesis', 'validators', 'consensus_state', 'consensus_params',
  'abci_query', 'abci_info', 'block', 'block_by_hash', 'header', 'header_by_hash', 'block_results',
  'blockchain', 'commit', 'tx', 'tx_search', 'block_search', 'unconfirmed_txs', 'num_unconfirmed_txs',
]);

export interface HttpChainRpcOptions {
  /** Deadline of one HTTP attempt in ms (default 10 000). A read may make `retries + 1` attempts. */
  timeoutMs?: number;
  /** Extra attempts for idempotent reads (default 2). Never used for other methods. */
  retries?: number;
  /** First retry delay in ms (default 100); doubles per attempt with jitter, capped at 2 s. */
  retryDelayMs?: number;
  /** Concurrent connections to the node (default 16); further calls queue on the agent. */
  maxSockets?: number;
  /**
   * Idle keep-alive sockets are closed after this many ms (default 4 000) — below the 10 s idle
   * timeout of CometBFT's Go server, so we rarely reuse a socket the server is closing.
   */
  freeSocketTimeoutMs?: number;
  /** Largest accepted response body (default 64 MiB). */
  maxResponseBytes?: number;
  /** Extra HTTP headers for every request and the WebSocket handshake (e.g. a proxy's API key). */
  headers?: Record<string, string>;
  /** WebSocket endpoint; default: the node URL's path + `/websocket`, scheme ws(s). */
  webSocketUrl?: string;
  /** Deadline for the WebSocket handshake and for `subscribe`/`unsubscribe` replies (default 10 000). */
  subscribeTimeoutMs?: number;
  /** First reconnect delay in ms (default 250); doubles per failed attempt with jitter. */
  reconnectDelayMs?: number;
  /** Reconnect delay cap in ms (default 10 000). */
  maxReconnectDelayMs?: number;
  /** WebSocket ping interval in ms (default 20 000; 0 disables); a missed pong drops the socket. */
  pingIntervalMs?: number;
  /** Lifecycle of the shared WebSocket, for logs and metrics. Never throws into the client. */
  onWebSocketEvent?: (event: WebSocketReport) => void;
}

/** What happened on the subscription socket. Events are best effort: a reconnect can lose some. */
export type WebSocketReport =
  | { type: 'open'; url: string }
  | { type: 'closed'; code: number; reason: string }
  | { type: 'reconnecting'; attempt: number; delayMs: number }
  | { type: 'resubscribe-failed'; query: string; error: Error }
  | { type: 'subscription-cancelled'; query: string; reason: string }
  | { type: 'listener-failed'; query: string; error: unknown };

export const JSONRPC = '2.0';
const MAX_ERROR_DATA = 2_000;
const MAX_RETRY_DELAY_MS = 2_000;
/** Errors that show the TCP connection was never made: the request cannot have reached the node. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
const TRANSIENT = new Set([...NOT_CONNECTED, 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED']);

/** One failed HTTP attempt, before `call` decides whether to retry and how to report it. */
class AttemptFailure {
  constructor(
    readonly reason: string,
    readonly retryable: boolean,
    readonly mayHaveReachedNode: boolean,
    readonly cause?: unknown,
  ) {}
}

/**
 * JSON-RPC 2.0 over HTTP(S) to a CometBFT node, with connection reuse, deadlines and retries
 * for reads, and CometBFT event subscriptions over one shared WebSocket at `<url>/websocket`.
 *
 * The URL is `http(s)://host:port[/path][?query]` (`tcp://` is read as `http://`, as in
 * CometBFT's `laddr`); IPv6 hosts are written `[::1]`. Requests go to the URL's own path (CometBFT
 * serves JSON-RPC at `/`; a reverse proxy may mount it elsewhere). Errors name the URL without
 * credentials or query string and never include request bodies (they may carry signed txs).
 */
export class HttpChainRpc implements ChainRpc {
  /** The node URL as shown in errors: no credentials, no query string. */
  readonly url: string;
  private readonly target: URL;
  private readonly transport: typeof http | typeof https;
  private readonly agent: http.Agent;
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly retryDelayMs: number;
  private readonly maxResponseBytes: number;
  private readonly headers: Record<string, string>;
  private readonly options: HttpChainRpcOptions;
  private subscriptions: WebSocketSubscriptions | null = null;
  private nextId = 1;
  private closed = false;

  constructor(url: string, options: HttpChainRpcOptions = {}) {
    this.target = parseNodeUrl(url);
    this.url = displayUrl(this.target);
    this.options = options;
    this.timeoutMs = positive(options.timeoutMs, 10_000, 'timeoutMs');
    this.retries = Math.max(0, Math.floor(options.retries ?? 2));
    this.retryDelayMs = Math.max(0, options.retryDelayMs ?? 100);
    this.maxResponseBytes = positive(options.maxResponseBytes, 64 * 1024 * 1024, 'maxResponseBytes');
    this.headers = { ...options.headers };
    const https_ = this.target.protocol === 'https:';
    this.transport = https_ ? https : http;
    const agentOptions: http.AgentOptions = {
      keepAlive: true,
      keepAliveMsecs: 1_000,
      maxSockets: positive(options.maxSockets, 16, 'maxSockets'),
      maxFreeSockets: positive(options.maxSockets, 16, 'maxSockets'),
      timeout: positive(options.freeSocketTimeoutMs, 4_000, 'freeSocketTimeoutMs'),
      scheduling: 'lifo',
    };
    this.agent = https_ ? new https.Agent(agentOptions) : new http.Agent(agentOptions);
  }

  async call<T = unknown>(method: string, params: Record<string, unknown> = {}, options: RpcCallOptions = {}): Promise<T> {
    if (this.closed) throw new NodeUnavailableError(this.url, `cannot call ${method}: the client is closed`);
    const signal = options.signal;
    signal?.throwIfAborted();
    const timeoutMs = positive(options.timeoutMs, this.timeoutMs, 'timeoutMs');
    const attempts = IDEMPOTENT_RPC_METHODS.has(method) ? this.retries + 1 : 1;
    const body = JSON.stringify({ jsonrpc: JSONRPC, id: this.nextId++, method, params: wireParams(params) });
    for (let attempt = 1; ; attempt++) {
      let failure: AttemptFailure;
      try {
        return await this.attempt<T>(method, body, timeoutMs, signal);
      } catch (err) {
        if (!(err instanceof AttemptFailure)) throw err; // RpcError or the caller's abort reason
        failure = err;
      }
      if (!failure.retryable || attempt >= attempts || this.closed) {
        throw new NodeUnavailableError(this.url, describeFailure(method, failure, attempt), { cause: failure.cause });
      }
      await sleep(backoff(this.retryDelayMs, attempt, MAX_RETRY_DELAY_MS), signal);
    }
  }

  async subscribe(query: string, listener: (event: RpcEvent) => void): Promise<RpcSubscription> {
    if (this.closed) throw new NodeUnavailableError(this.url, `cannot subscribe to ${query}: the client is closed`);
    this.subscriptions ??= new WebSocketSubscriptions(webSocketUrl(this.target, this.options.webSocketUrl), this.headers, this.options);
    return this.subscriptions.subscribe(query, listener);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.subscriptions?.close();
    this.agent.destroy();
  }

  private attempt<T>(method: string, body: string, timeoutMs: number, signal?: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      // `complete`: the response was read to its end, so the socket goes back to the pool even
      // when the answer is a JSON-RPC error; otherwise the request (and its socket) is destroyed.
      const settle = (fail: unknown, value?: T, complete = false): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (fail === undefined) return resolve(value as T);
        if (!complete) req.destroy();
        reject(fail);
      };
      const onAbort = (): void => settle(signal!.reason ?? new DOMException('This operation was aborted', 'AbortError'));
      const req = this.transport.request(
        {
          protocol: this.target.protocol,
          hostname: stripBrackets(this.target.hostname),
          port: this.target.port || undefined,
          path: (this.target.pathname || '/') + this.target.search,
          auth: this.target.username ? `${decodeURIComponent(this.target.username)}:${decodeURIComponent(this.target.password)}` : undefined,
          method: 'POST',
          agent: this.agent,
          headers: {
            ...this.headers,
            'content-type': 'application/json',
            accept: 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > this.maxResponseBytes) {
              settle(new AttemptFailure(`the ${method} answer exceeds ${this.maxResponseBytes} bytes`, false, true));
            } else chunks.push(chunk);
          });
          res.on('error', (err) => settle(networkFailure(err)));
          res.on('end', () => {
            try {
              settle(undefined, readEnvelope<T>(method, res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8')), true);
            } catch (err) {
              settle(err, undefined, true);
            }
          });
        },
      );
      const timer = setTimeout(
        () => settle(new AttemptFailure(`no answer to ${method} within ${timeoutMs} ms`, true, true)),
        timeoutMs,
      );
      signal?.addEventListener('abort', onAbort, { once: true });
      req.on('error', (err) => settle(networkFailure(err)));
      req.end(body);
    });
  }
}

// ---- WebSocket subscriptions -----------------------------------------------------------------

function parseNodeUrl(raw: string): URL {
  const text = raw.trim().replace(/^tcp:\/\//i, 'http://');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TypeError(`node URL ${JSON.stringify(raw)} is not a URL; expected http(s)://host:port[/path], e.g. http://127.0.0.1:26657`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`node URL ${JSON.stringify(displayUrl(url))} must use http or https (CometBFT's tcp:// means http), got ${url.protocol}`);
  }
  url.hash = '';
  return url;
}

export function displayUrl(url: URL): string {
  const path = url.pathname === '/' ? '' : url.pathname;
  return `${url.protocol}//${url.host}${path}`;
}

function webSocketUrl(target: URL, override?: string): string {
  if (override) return override;
  const ws = new URL(target.href);
  ws.protocol = target.protocol === 'https:' ? 'wss:' : 'ws:';
  ws.pathname = `${target.pathname.replace(/\/+$/, '')}/websocket`;
  return ws.href;
}

function stripBrackets(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/**
 * CometBFT decodes Go int/int64 params only from JSON strings (`"height":"5"`; a bare 5 is an
 * "invalid 64-bit integer encoding" error), so top-level integer params are sent as strings.
 */
function wireParams(params: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    out[key] = typeof value === 'bigint' || (typeof value === 'number' && Number.isInteger(value)) ? String(value) : value;
  }
  return out;
}

function readEnvelope<T>(method: string, status: number, text: string): T {
  let envelope: { result?: unknown; error?: { code?: number; message?: string; data?: string } } | null = null;
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) envelope = parsed;
  } catch {
    // handled below by status
  }
  // A JSON-RPC error is the node's answer whatever the HTTP status (CometBFT uses 200 and 500).
  if (envelope?.error) throw toRpcError(envelope.error);
  if (envelope && 'result' in envelope && status >= 200 && status < 300) return envelope.result as T;
  if (status >= 500 || status === 429) {
    throw new AttemptFailure(`${method} answered HTTP ${status} without a JSON-RPC response`, true, true);
  }
  throw new AttemptFailure(
    `${method} answered HTTP ${status} with ${envelope ? 'JSON without result or error' : 'a non-JSON body'}; is this a CometBFT RPC URL?`,
    false,
    true,
  );
}

export function toRpcError(error: { code?: number; message?: string; data?: string }): RpcError {
  const data = typeof error.data === 'string' ? truncate(error.data, MAX_ERROR_DATA) : undefined;
  return new RpcError(typeof error.code === 'number' ? error.code : -32603, error.message ?? 'Internal error', data || undefined);
}

function networkFailure(err: NodeJS.ErrnoException): AttemptFailure {
  const code = err.code ?? '';
  const what = code === 'ECONNREFUSED' ? 'connection refused' : code === 'ECONNRESET' ? 'connection reset' : err.message;
  return new AttemptFailure(code && !what.includes(code) ? `${what} (${code})` : what, TRANSIENT.has(code), !NOT_CONNECTED.has(code), err);
}

function describeFailure(method: string, failure: AttemptFailure, attempts: number): string {
  const tries = attempts > 1 ? ` after ${attempts} attempts` : '';
  let text = `${method} failed${tries}: ${failure.reason}`;
  if (method.startsWith('broadcast_tx') && failure.mayHaveReachedNode) {
    text += '; the transaction may have reached the node — look it up by hash (tx) before sending it again';
  }
  return text;
}

export function isEventResult(result: unknown): result is RpcEvent {
  return typeof result === 'object' && result !== null && 'data' in result && 'query' in result;
}

export function backoff(baseMs: number, attempt: number, capMs: number): number {
  const raw = Math.min(capMs, baseMs * 2 ** (attempt - 1));
  return Math.round(raw * (0.5 + Math.random() / 2));
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${name} must be a positive number of ms/bytes/sockets, got ${value}`);
  return value;
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
