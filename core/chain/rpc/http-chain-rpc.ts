import { Pool, type Dispatcher } from 'undici';
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
  /** Concurrent connections to the node (default 16); further calls queue on the pool. */
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
  private readonly pool: Pool;
  private readonly path: string;
  private readonly requestHeaders: Record<string, string>;
  /** Identical reads in flight, by request body (without id): later callers share the first one's answer. */
  private readonly inFlight = new Map<string, Promise<string>>();
  private readonly timeoutMs: number;
  private readonly retries: number;
  private readonly retryDelayMs: number;
  private readonly maxResponseBytes: number;
  private readonly headers: Record<string, string>;
  private readonly options: HttpChainRpcOptions;
  private subscriptions: WebSocketSubscriptions | null = null;
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
    const freeSocketTimeoutMs = positive(options.freeSocketTimeoutMs, 4_000, 'freeSocketTimeoutMs');
    // undici's pool: keep-alive connections, no per-request agent bookkeeping, and answers read
    // straight into one buffer — the remote node path costs about what a bare forwarding proxy does.
    this.pool = new Pool(this.target.origin, {
      connections: positive(options.maxSockets, 16, 'maxSockets'),
      keepAliveTimeout: freeSocketTimeoutMs,
      keepAliveMaxTimeout: freeSocketTimeoutMs,
      pipelining: 1,
    });
    this.path = (this.target.pathname || '/') + this.target.search;
    const auth: Record<string, string> = this.target.username
      ? { authorization: `Basic ${Buffer.from(`${decodeURIComponent(this.target.username)}:${decodeURIComponent(this.target.password)}`).toString('base64')}` }
      : {};
    this.requestHeaders = { ...this.headers, ...auth, 'content-type': 'application/json', accept: 'application/json' };
  }

  async call<T = unknown>(method: string, params: Record<string, unknown> = {}, options: RpcCallOptions = {}): Promise<T> {
    if (this.closed) throw new NodeUnavailableError(this.url, `cannot call ${method}: the client is closed`);
    const signal = options.signal;
    signal?.throwIfAborted();
    const timeoutMs = positive(options.timeoutMs, this.timeoutMs, 'timeoutMs');
    const idempotent = IDEMPOTENT_RPC_METHODS.has(method);
    const attempts = idempotent ? this.retries + 1 : 1;
    // The id is the same on every request: one JSON-RPC call per HTTP request, so it identifies
    // nothing, and a fixed id lets identical reads be recognised by their body.
    const body = `{"jsonrpc":"${JSONRPC}","id":1,"method":${JSON.stringify(method)},"params":${JSON.stringify(wireParams(params))}}`;
    for (let attempt = 1; ; attempt++) {
      let failure: AttemptFailure;
      try {
        const text = idempotent ? await this.sharedRead(method, body, timeoutMs, signal) : await this.attempt(method, body, timeoutMs, signal);
        return readEnvelope<T>(method, text);
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
    await this.pool.destroy();
  }

  /**
   * Single flight for reads: a call identical to one in flight (same method and params) waits
   * for that request's answer instead of sending its own, and parses its own copy of it. The
   * shared request runs without any one caller's signal, so a caller that gives up stops waiting
   * without failing the others.
   */
  private sharedRead(method: string, body: string, timeoutMs: number, signal?: AbortSignal): Promise<string> {
    let flight = this.inFlight.get(body);
    if (!flight) {
      flight = this.attempt(method, body, timeoutMs);
      this.inFlight.set(body, flight);
      const done = () => this.inFlight.delete(body);
      flight.then(done, done);
    }
    if (!signal) return flight;
    return new Promise<string>((resolve, reject) => {
      const onAbort = () => reject(signal.reason ?? new DOMException('This operation was aborted', 'AbortError'));
      signal.addEventListener('abort', onAbort, { once: true });
      flight.then(
        (text) => { signal.removeEventListener('abort', onAbort); resolve(text); },
        (err: unknown) => { signal.removeEventListener('abort', onAbort); reject(err); },
      );
    });
  }

  /**
   * One HTTP exchange under a precise deadline: undici's own timeouts tick at one-second
   * resolution, so the deadline is a timer of ours; the exchange left behind is ended by
   * undici's timeouts (set to the same value) and its connection is not reused.
   */
  private attempt(method: string, body: string, timeoutMs: number, signal?: AbortSignal): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new AttemptFailure(`no answer to ${method} within ${timeoutMs} ms`, true, true)), timeoutMs);
      this.exchange(method, body, timeoutMs, signal).then(
        (text) => { clearTimeout(timer); resolve(text); },
        (err: unknown) => { clearTimeout(timer); reject(err); },
      );
    });
  }

  /** The answer's text, or an AttemptFailure (or the caller's abort reason). */
  private async exchange(method: string, body: string, timeoutMs: number, signal?: AbortSignal): Promise<string> {
    let response: Dispatcher.ResponseData;
    try {
      response = await this.pool.request({
        path: this.path,
        method: 'POST',
        headers: this.requestHeaders,
        body,
        signal,
        // One deadline for the answer's head and one for its body; together they bound the call.
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
    } catch (err) {
      if (signal?.aborted) throw signal.reason ?? err;
      throw networkFailure(err as NodeJS.ErrnoException, method, timeoutMs);
    }
    const declared = Number(response.headers['content-length'] ?? 0);
    if (declared > this.maxResponseBytes) {
      response.body.destroy();
      throw new AttemptFailure(`the ${method} answer exceeds ${this.maxResponseBytes} bytes`, false, true);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > this.maxResponseBytes) {
          response.body.destroy();
          throw new AttemptFailure(`the ${method} answer exceeds ${this.maxResponseBytes} bytes`, false, true);
        }
        chunks.push(chunk);
      }
    } catch (err) {
      if (err instanceof AttemptFailure) throw err;
      if (signal?.aborted) throw signal.reason ?? err;
      throw networkFailure(err as NodeJS.ErrnoException, method, timeoutMs);
    }
    const text = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8');
    return statusChecked(method, response.statusCode, text);
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

type Envelope = { result?: unknown; error?: { code?: number; message?: string; data?: string } };

function envelopeOf(text: string): Envelope | null {
  try {
    const parsed = JSON.parse(text);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * The answer text when it carries a JSON-RPC result or error: a JSON-RPC error is the node's
 * answer whatever the HTTP status (CometBFT uses 200 and 500). Anything else is a failed attempt,
 * retryable for 5xx and 429. A 2xx answer is parsed once, by the caller (readEnvelope).
 */
function statusChecked(method: string, status: number, text: string): string {
  if (status >= 200 && status < 300) return text;
  const envelope = envelopeOf(text);
  if (envelope?.error) return text;
  if (status >= 500 || status === 429) {
    throw new AttemptFailure(`${method} answered HTTP ${status} without a JSON-RPC response`, true, true);
  }
  throw new AttemptFailure(`${method} answered HTTP ${status} with ${envelope ? 'JSON without result or error' : 'a non-JSON body'}; is this a CometBFT RPC URL?`, false, true);
}

function readEnvelope<T>(method: string, text: string): T {
  const envelope = envelopeOf(text);
  if (envelope?.error) throw toRpcError(envelope.error);
  if (envelope && 'result' in envelope) return envelope.result as T;
  throw new AttemptFailure(`${method} answered HTTP 200 with ${envelope ? 'JSON without result or error' : 'a non-JSON body'}; is this a CometBFT RPC URL?`, false, true);
}

export function toRpcError(error: { code?: number; message?: string; data?: string }): RpcError {
  const data = typeof error.data === 'string' ? truncate(error.data, MAX_ERROR_DATA) : undefined;
  return new RpcError(typeof error.code === 'number' ? error.code : -32603, error.message ?? 'Internal error', data || undefined);
}

/** undici's timeouts and socket errors, and the system errors under them, as one failed attempt. */
function networkFailure(err: NodeJS.ErrnoException, method: string, timeoutMs: number): AttemptFailure {
  if (err.code === 'UND_ERR_HEADERS_TIMEOUT' || err.code === 'UND_ERR_BODY_TIMEOUT') {
    return new AttemptFailure(`no answer to ${method} within ${timeoutMs} ms`, true, true, err);
  }
  if (err.code === 'UND_ERR_CONNECT_TIMEOUT') return new AttemptFailure('connection timed out (ETIMEDOUT)', true, false, err);
  const cause = (err.cause ?? null) as NodeJS.ErrnoException | null;
  const system = err.code === 'UND_ERR_SOCKET' && cause?.code ? cause : err;
  const code = system.code === 'UND_ERR_SOCKET' ? 'ECONNRESET' : system.code ?? '';
  const what = code === 'ECONNREFUSED' ? 'connection refused' : code === 'ECONNRESET' ? 'connection reset' : system.message;
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
