import type { IncomingMessage } from 'node:http';
import type { WebSocket } from 'ws';
import type { ChainNode } from 'chainhost/chain';
import { ApiError, browserOriginAllowed, type Logger, type UpgradeRefusal, type WebSocketContribution } from 'chainhost/plugin';
import type { DashboardOptions } from '../dashboard.config.js';
import type { ClientAddressResolver } from '../limits/client-address.js';
import type { DashboardRateLimiter } from '../limits/rate-limit.js';
import type { ContractEventMessage, NewBlockMessage, StateChangeMessage } from './feed-messages.js';
import { toJsonText } from '../http/json-response.js';
import { NodeFeed } from './node-feed.js';
import { WsSession } from './ws-session.js';

export interface WsHubOptions {
  limits: DashboardOptions['websocket'];
  /** Null when rate limits are off. */
  rateLimiter: DashboardRateLimiter | null;
  addresses: ClientAddressResolver;
  node: () => ChainNode;
  log: Logger;
}

/**
 * `/ws` (dashboard.md §6): the Origin (the dashboard's own or a listed one), the connection caps
 * (total, per client address) and the websocket rate class are checked before the upgrade
 * (refused with 403/429/503); `new_block` and
 * `node_status` go to every client, `state_change` and `contract_event` only to clients with a
 * matching subscription. The node feed starts with the first client.
 */
export class WsHub {
  private readonly sessions = new Set<WsSession>();
  private readonly perClient = new Map<string, number>();
  private readonly feed: NodeFeed;
  private pingTimer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly allowedOrigins: ReadonlySet<string>;

  constructor(private readonly options: WsHubOptions) {
    this.allowedOrigins = new Set(options.limits.allowedOrigins);
    this.feed = new NodeFeed(options.node, {
      newBlock: (m) => this.broadcast(m),
      tx: (states, events) => this.fanOut(states, events),
      nodeStatus: (status) => this.broadcast({ type: 'node_status', status }),
    }, { statusIntervalMs: options.limits.nodeStatusIntervalMs, log: options.log });
  }

  get clientCount(): number {
    return this.sessions.size;
  }

  contribution(server: string): WebSocketContribution {
    return {
      server,
      path: '/ws',
      capability: 'read',
      accept: (request) => this.accept(request),
      handle: (socket, request) => this.handle(socket, request),
    };
  }

  accept(request: IncomingMessage): UpgradeRefusal | null | Promise<UpgradeRefusal | null> {
    if (this.stopped) return { status: 503, message: 'dashboard shutting down' };
    // Only the dashboard's own pages and listed origins get one (browsers apply no CORS to WebSockets).
    if (!browserOriginAllowed(request.headers.origin, request.headers.host, this.allowedOrigins)) {
      return { status: 403, message: 'Forbidden: Origin not allowed; list it in plugins.dashboard.websocket.allowedOrigins' };
    }
    const client = this.clientOf(request);
    const tooMany = (err: unknown): UpgradeRefusal => {
      if (err instanceof ApiError) return { status: 429, message: 'Too Many Requests' };
      throw err;
    };
    let pending: void | Promise<void>;
    try {
      pending = this.options.rateLimiter?.check('websocket', client);
    } catch (err) {
      return tooMany(err);
    }
    // With limits shared through Redis the token is taken asynchronously.
    if (pending) return pending.then(() => this.capacityRefusal(client), tooMany);
    return this.capacityRefusal(client);
  }

  private capacityRefusal(client: string): UpgradeRefusal | null {
    if (this.sessions.size >= this.options.limits.maxClients) return { status: 503, message: 'dashboard websocket client limit reached' };
    if ((this.perClient.get(client) ?? 0) >= this.options.limits.maxClientsPerIp) {
      return { status: 503, message: 'dashboard websocket client limit reached for client' };
    }
    return null;
  }

  handle(socket: WebSocket, request: IncomingMessage): void {
    const client = this.clientOf(request);
    const session = new WsSession(socket, client, this.options.limits);
    // Two upgrades can pass `accept` together; the caps hold here too.
    if (this.stopped || this.sessions.size >= this.options.limits.maxClients || (this.perClient.get(client) ?? 0) >= this.options.limits.maxClientsPerIp) {
      session.close(1013, 'dashboard websocket client limit reached');
      return;
    }
    this.sessions.add(session);
    this.perClient.set(client, (this.perClient.get(client) ?? 0) + 1);
    socket.on('pong', () => (session.alive = true));
    socket.on('message', (data, isBinary) => session.handle(data, isBinary));
    socket.on('error', () => session.close(1011, 'socket error'));
    socket.on('close', () => {
      session.markClosed();
      this.sessions.delete(session);
      const left = (this.perClient.get(client) ?? 1) - 1;
      if (left <= 0) this.perClient.delete(client);
      else this.perClient.set(client, left);
    });
    this.feed.start();
    this.startPing();
    if (this.feed.status) session.send({ type: 'node_status', status: this.feed.status });
  }

  /** Sends one message to every client, serialised once. */
  broadcast(message: NewBlockMessage | { type: 'node_status'; status: string }): void {
    const text = toJsonText(message);
    for (const s of this.sessions) s.sendText(text);
  }

  private fanOut(states: StateChangeMessage[], events: ContractEventMessage[]): void {
    for (const s of this.sessions) {
      if (!s.hasSubscriptions) continue;
      for (const m of states) if (s.wantsState(m.key)) s.send(m);
      for (const m of events) if (s.wantsEvent(m.contract, m.event)) s.send(m);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = null;
    for (const s of this.sessions) s.close(1001, 'dashboard shutdown');
    await this.feed.stop();
  }

  private startPing(): void {
    if (this.pingTimer) return;
    this.pingTimer = setInterval(() => {
      for (const s of this.sessions) {
        // No pong since the last ping: the peer is gone without a close frame.
        if (!s.alive) {
          s.socket.terminate();
          continue;
        }
        s.alive = false;
        try {
          s.socket.ping();
        } catch {
          s.close(1001, 'send failed');
        }
      }
    }, this.options.limits.pingIntervalMs);
    this.pingTimer.unref();
  }

  private clientOf(request: IncomingMessage): string {
    return this.options.addresses.resolve(request.socket.remoteAddress, request.headers['x-forwarded-for']);
  }
}
