import type { RpcEvent } from 'chainhost/chain';
import { EventQuery, type EventMap } from './event-query.js';

/**
 * The node's pubsub: the block producer publishes `NewBlock` and `Tx` events (with their
 * CometBFT `events` maps); subscribers — WebSocket clients and in-process `ChainRpc` users —
 * receive the ones their query matches. Delivery is synchronous and best effort, as in
 * CometBFT: a listener that throws is logged and skipped, never blocks the chain.
 */
export interface Subscription {
  readonly id: number;
  readonly query: EventQuery;
  readonly subscriber: string;
}

type Listener = (event: RpcEvent) => void;

export class EventBus {
  private readonly subs = new Map<number, Subscription & { listener: Listener }>();
  private nextId = 1;

  constructor(private readonly onListenerError: (err: unknown) => void = () => {}) {}

  /** Throws EventQueryError for a bad query. `subscriber` groups subscriptions for unsubscribe_all. */
  subscribe(subscriber: string, queryText: string, listener: Listener): Subscription {
    const query = EventQuery.parse(queryText);
    const sub = { id: this.nextId++, query, subscriber, listener };
    this.subs.set(sub.id, sub);
    return sub;
  }

  unsubscribe(id: number): boolean {
    return this.subs.delete(id);
  }

  /** Subscriptions of one subscriber, optionally only those with this exact query text. */
  find(subscriber: string, queryText?: string): Subscription[] {
    return [...this.subs.values()].filter((s) => s.subscriber === subscriber && (queryText === undefined || s.query.text === queryText));
  }

  unsubscribeAll(subscriber: string): number {
    let n = 0;
    for (const s of this.find(subscriber)) n += this.subs.delete(s.id) ? 1 : 0;
    return n;
  }

  get size(): number {
    return this.subs.size;
  }

  /** Distinct subscribers holding at least one subscription (CometBFT's `EventBus.NumClients`). */
  get clientCount(): number {
    return new Set([...this.subs.values()].map((s) => s.subscriber)).size;
  }

  get hasSubscribers(): boolean {
    return this.subs.size > 0;
  }

  /** Delivers `data` to every subscription whose query matches `events`. */
  publish(data: { type: string; value: unknown }, events: EventMap): void {
    for (const sub of [...this.subs.values()]) {
      if (!this.subs.has(sub.id) || !sub.query.matches(events)) continue;
      try {
        sub.listener({ query: sub.query.text, data, events });
      } catch (err) {
        this.onListenerError(err);
      }
    }
  }
}
