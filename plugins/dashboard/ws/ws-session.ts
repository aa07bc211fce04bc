import type { RawData, WebSocket } from 'ws';
import type { DashboardOptions } from '../dashboard.config.js';
import { toJsonText } from '../http/json-response.js';
import { globMatch } from './glob.js';

interface EventSubscription {
  contract: string;
  event: string | null;
}

const MAX_PATTERN_CHARS = 512;

/**
 * One `/ws` connection: its subscriptions (dashboard.md §6.3) and its outbound queue. Messages
 * are counted from `send` until the socket has written them; a client that lets
 * `maxOutboundQueue` pile up is closed with 1013 so a slow reader cannot hold server memory.
 */
export class WsSession {
  readonly states = new Set<string>();
  private readonly events = new Map<string, EventSubscription>();
  private queued = 0;
  private closed = false;
  /** Answered the last ping (the hub's keep-alive). */
  alive = true;

  constructor(
    readonly socket: WebSocket,
    readonly client: string,
    private readonly limits: DashboardOptions['websocket'],
  ) {}

  get isOpen(): boolean {
    return !this.closed && this.socket.readyState === this.socket.OPEN;
  }

  get outboundQueue(): number {
    return this.queued;
  }

  /** Sends pre-serialised JSON text (a broadcast is serialised once for every client). */
  sendText(text: string): void {
    if (!this.isOpen) return;
    if (this.queued >= this.limits.maxOutboundQueue) {
      this.close(1013, 'client backlog exceeded');
      return;
    }
    this.queued++;
    this.socket.send(text, (err) => {
      this.queued--;
      if (err) this.close(1001, 'send failed');
    });
  }

  send(message: object): void {
    this.sendText(toJsonText(message));
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.socket.close(code, reason);
    } catch {
      this.socket.terminate();
    }
  }

  markClosed(): void {
    this.closed = true;
  }

  wantsState(key: string): boolean {
    for (const pattern of this.states) if (globMatch(key, pattern)) return true;
    return false;
  }

  wantsEvent(contract: string, event: string): boolean {
    for (const sub of this.events.values()) {
      if (globMatch(contract, sub.contract) && (sub.event === null || globMatch(event, sub.event))) return true;
    }
    return false;
  }

  get hasSubscriptions(): boolean {
    return this.states.size > 0 || this.events.size > 0;
  }

  /** One client frame → its reply (or nothing for valid JSON without `action`). */
  handle(data: RawData, isBinary: boolean): void {
    const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
    if (bytes.length > this.limits.maxMessageBytes) {
      this.send({ status: 'error', message: `message too large: ${bytes.length} bytes, at most ${this.limits.maxMessageBytes}` });
      this.close(1009, 'message too large');
      return;
    }
    if (isBinary) return this.send({ status: 'error', message: 'binary frames are not accepted; send JSON text' });
    let message: unknown;
    try {
      message = JSON.parse(bytes.toString('utf8'));
    } catch {
      return this.send({ status: 'error', message: 'invalid JSON' });
    }
    if (!message || typeof message !== 'object' || Array.isArray(message) || !('action' in message)) return;
    this.send(this.reply(message as Record<string, unknown>));
  }

  private reply(m: Record<string, unknown>): object {
    switch (m.action) {
      case 'subscribe':
        return this.subscribe(m);
      case 'unsubscribe':
        return this.unsubscribe(m);
      case 'unsubscribe_all':
        this.states.clear();
        this.events.clear();
        return { status: 'ok', action: 'unsubscribe_all' };
      case 'list':
        return {
          status: 'ok',
          action: 'list',
          state: [...this.states].sort(),
          events: [...this.events.values()].map((e) => ({ contract: e.contract, event: e.event })),
        };
      default:
        return { status: 'error', message: `unknown action: ${describe(m.action)}` };
    }
  }

  private subscribe(m: Record<string, unknown>): object {
    if (m.type === 'state') {
      const key = pattern(m.key);
      if (key === null) return { status: 'error', message: 'missing key' };
      if (key.length > MAX_PATTERN_CHARS) return { status: 'error', message: `key pattern longer than ${MAX_PATTERN_CHARS} characters` };
      if (!this.states.has(key) && this.states.size >= this.limits.maxStateSubscriptions) {
        return { status: 'error', message: 'state subscription limit reached' };
      }
      this.states.add(key);
      return { status: 'ok', action: 'subscribe', type: 'state', key };
    }
    if (m.type === 'event') {
      const sub = eventSubscription(m);
      if (typeof sub === 'string') return { status: 'error', message: sub };
      const id = JSON.stringify([sub.contract, sub.event]);
      if (!this.events.has(id) && this.events.size >= this.limits.maxEventSubscriptions) {
        return { status: 'error', message: 'event subscription limit reached' };
      }
      this.events.set(id, sub);
      return { status: 'ok', action: 'subscribe', type: 'event', contract: sub.contract, event: sub.event };
    }
    return { status: 'error', message: `unknown type: ${describe(m.type)}` };
  }

  private unsubscribe(m: Record<string, unknown>): object {
    if (m.type === 'state') {
      const key = pattern(m.key);
      if (key === null) return { status: 'error', message: 'missing key' };
      this.states.delete(key);
      return { status: 'ok', action: 'unsubscribe', type: 'state', key };
    }
    if (m.type === 'event') {
      const sub = eventSubscription(m);
      if (typeof sub === 'string') return { status: 'error', message: sub };
      this.events.delete(JSON.stringify([sub.contract, sub.event]));
      return { status: 'ok', action: 'unsubscribe', type: 'event', contract: sub.contract, event: sub.event };
    }
    return { status: 'error', message: `unknown type: ${describe(m.type)}` };
  }
}

function pattern(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

function eventSubscription(m: Record<string, unknown>): EventSubscription | string {
  const contract = m.contract === undefined || m.contract === null || m.contract === '' ? '*' : m.contract;
  const event = m.event === undefined || m.event === null || m.event === '' ? null : m.event;
  if (typeof contract !== 'string' || (event !== null && typeof event !== 'string')) return 'contract and event must be strings';
  if (contract.length > MAX_PATTERN_CHARS || (event?.length ?? 0) > MAX_PATTERN_CHARS) return `patterns are limited to ${MAX_PATTERN_CHARS} characters`;
  return { contract, event };
}

function describe(value: unknown): string {
  return typeof value === 'string' ? value.slice(0, 64) : JSON.stringify(value ?? null)?.slice(0, 64) ?? String(value);
}
