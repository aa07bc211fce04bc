import type WebSocket from 'ws';
import type { Logger } from 'chainhost/plugin';
import { rpcErrorBody, type DevnetRpc } from './devnet-rpc.js';
import type { EventBus } from './event-bus.js';
import { EventQueryError } from './event-query.js';
import { jsonText } from './json-text.js';
import type { RpcLimits } from './rpc-limits.js';

/**
 * One `/websocket` client (cometbft-rpc.md §5): JSON-RPC requests, `subscribe` (first reply
 * `{}` with the request id, then every matching event as `{query, data, events}` under that
 * id), `unsubscribe`, `unsubscribe_all`. `subscribe` checks CometBFT's limits in its order
 * (rpc/core/events.go): subscribing clients on the node, subscriptions of this client, query
 * length; a client that stops reading (16 MiB buffered) is disconnected.
 */
const MAX_BUFFERED = 16 * 1024 * 1024;
let sessionIds = 0;

export class WebSocketSession {
  private readonly subscriber = `ws-${++sessionIds}`;

  constructor(
    private readonly ws: WebSocket, private readonly rpc: DevnetRpc, private readonly events: EventBus, private readonly logger: Logger,
    private readonly limits: Pick<RpcLimits, 'maxSubscriptionClients' | 'maxSubscriptionsPerClient' | 'maxQueryLength'>,
  ) {
    ws.on('message', (data) => void this.onMessage(data.toString()));
    ws.on('close', () => this.events.unsubscribeAll(this.subscriber));
    ws.on('error', () => this.events.unsubscribeAll(this.subscriber));
  }

  close(): void {
    this.events.unsubscribeAll(this.subscriber);
    this.ws.terminate();
  }

  private send(message: unknown): void {
    if (this.ws.readyState !== this.ws.OPEN) return;
    if (this.ws.bufferedAmount > MAX_BUFFERED) {
      this.logger.warn('websocket client is not reading; disconnecting', { subscriber: this.subscriber });
      this.close();
      return;
    }
    this.ws.send(jsonText(message));
  }

  private async onMessage(text: string): Promise<void> {
    let request: { id?: unknown; method?: unknown; params?: unknown };
    try {
      request = JSON.parse(text);
    } catch (err) {
      this.send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error', data: `error unmarshaling request: ${(err as Error).message}` } });
      return;
    }
    const id = request?.id ?? null;
    if (typeof request?.method !== 'string') {
      this.send({ jsonrpc: '2.0', id, error: { code: -32600, message: 'Invalid Request', data: 'request has no method' } });
      return;
    }
    try {
      const result = await this.dispatch(request.method, request.params, id);
      this.send({ jsonrpc: '2.0', id, result });
    } catch (err) {
      this.send({ jsonrpc: '2.0', id, error: rpcErrorBody(err) });
    }
  }

  private async dispatch(method: string, params: unknown, id: unknown): Promise<unknown> {
    const query = queryParam(params);
    switch (method) {
      case 'subscribe': {
        const { maxSubscriptionClients, maxSubscriptionsPerClient, maxQueryLength } = this.limits;
        if (this.events.clientCount >= maxSubscriptionClients) throw new Error(`max_subscription_clients ${maxSubscriptionClients} reached`);
        if (this.events.find(this.subscriber).length >= maxSubscriptionsPerClient) throw new Error(`max_subscriptions_per_client ${maxSubscriptionsPerClient} reached`);
        if (query.length > maxQueryLength) throw new Error('maximum query length exceeded');
        if (this.events.find(this.subscriber, query).length > 0) throw new Error('already subscribed');
        try {
          this.events.subscribe(this.subscriber, query, (event) => this.send({ jsonrpc: '2.0', id, result: event }));
        } catch (err) {
          if (err instanceof EventQueryError) throw new Error(err.message);
          throw err;
        }
        return {};
      }
      case 'unsubscribe': {
        const subs = this.events.find(this.subscriber, query);
        if (subs.length === 0) throw new Error('subscription not found');
        for (const s of subs) this.events.unsubscribe(s.id);
        return {};
      }
      case 'unsubscribe_all':
        if (this.events.unsubscribeAll(this.subscriber) === 0) throw new Error('subscription not found');
        return {};
      default:
        return this.rpc.handle(method, params);
    }
  }
}

function queryParam(params: unknown): string {
  if (Array.isArray(params)) return String(params[0] ?? '');
  if (params && typeof params === 'object') return String((params as Record<string, unknown>)['query'] ?? '');
  return '';
}
