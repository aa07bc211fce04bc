import type Router from '@koa/router';
import type Koa from 'koa';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebSocket } from 'ws';
import type { Capability } from './capability.js';
import type { HttpServerLimits } from './http/server-limits.js';

/** A named HTTP server the host owns and binds; plugins declare it and contribute routes to it. */
export interface ServerDeclaration {
  /** e.g. `tools`, `dashboard`, `graphql`. */
  name: string;
  host: string;
  port: number;
  /**
   * A query service (dashboard, GraphQL) binds beyond loopback only with both its
   * `--public-query` option and CHAIN_PUBLIC_QUERY_ENABLED=1 (spec 5.6).
   */
  kind: 'tools' | 'query';
  publicQuery?: boolean;
  /** Runs before every route of this server (limits, auth). */
  middleware?: Koa.Middleware[];
  /** Request body cap in bytes (default 1 MiB). */
  bodyLimitBytes?: number;
  /**
   * Cap on the request line and headers together, in bytes (default Node's 16 KiB). A server whose
   * routes take long path parameters (the dashboard's `simulate_tx/<hex>`) raises it so they reach
   * the route; beyond it every server answers 431 `payload_too_large` in the one error shape.
   */
  maxHeaderBytes?: number;
  /** Header and body timeouts and the per-client cap (defaults: DEFAULT_HTTP_SERVER_LIMITS). */
  limits?: Partial<HttpServerLimits>;
  /**
   * Answers the requests it recognizes straight on node:http, before koa, and returns false for
   * every other request. Only for a hot path whose own work is cheaper than koa's per-request
   * context: it must apply the server's guards and error shape itself, and report each answer
   * through `answered` so metrics count it like any route.
   */
  directHandler?: DirectHandler;
}

/**
 * A port a plugin binds itself, outside the host's servers (the devnet's node RPC and its
 * metrics): declared so `--check` lists every port a config would bind, not only the host's.
 */
export interface OwnListener {
  /** e.g. `node RPC`. */
  name: string;
  host: string;
  port: number;
  /** What answers there, e.g. `/status  /websocket`. */
  paths?: string;
}

export type DirectHandler = (req: IncomingMessage, res: ServerResponse, answered: AnsweredRequest) => boolean;

/** Reports one answered request by its route pattern (e.g. `/tools/:name`), never its raw path. */
export type AnsweredRequest = (route: string, method: string, status: number, durationMs: number) => void;

export interface RouteContribution {
  server: string;
  /** Unique per server, e.g. `dashboard:api`. */
  id: string;
  capability: Capability;
  router: Router;
}

/** Why a WebSocket upgrade is refused: the HTTP status and reason line the client gets. */
export interface UpgradeRefusal {
  status: number;
  message: string;
}

export interface WebSocketContribution {
  server: string;
  path: string;
  capability: Capability;
  /** May refuse the upgrade by returning a status code (e.g. 429), at once or once a shared limit answered; otherwise accepts. */
  accept?(request: IncomingMessage): UpgradeRefusal | null | Promise<UpgradeRefusal | null>;
  handle(socket: WebSocket, request: IncomingMessage): void;
}
