import type { ChainNode, RpcSubscription } from 'chainhost/chain';
import type { Logger } from 'chainhost/plugin';
import { newBlockMessage, txMessages, type ContractEventMessage, type NewBlockMessage, type StateChangeMessage } from './feed-messages.js';

export interface FeedListener {
  newBlock(message: NewBlockMessage): void;
  tx(states: StateChangeMessage[], events: ContractEventMessage[]): void;
  nodeStatus(status: 'online' | 'offline'): void;
}

const BACKOFF_MS = [1000, 2000, 4000, 8000, 16000, 30000];

/**
 * The dashboard's one subscription to the configured node (`NewBlock` and `Tx`), shared by every
 * WebSocket client (dashboard.md §6.1). A failed subscribe is retried with back-off 1, 2, 4, 8,
 * 16, 30 s; the node is also polled (`status`) so `node_status` reports an outage even when the
 * transport reconnects silently. Delivery is best effort, like CometBFT's own.
 */
export class NodeFeed {
  private subscriptions: RpcSubscription[] = [];
  private running = false;
  private attempt = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  private statusTimer: NodeJS.Timeout | null = null;
  private current: 'online' | 'offline' | null = null;

  constructor(
    private readonly node: () => ChainNode,
    private readonly listener: FeedListener,
    private readonly options: { statusIntervalMs: number; log: Logger },
  ) {}

  get status(): 'online' | 'offline' | null {
    return this.current;
  }

  /** Starts once; later calls do nothing. */
  start(): void {
    if (this.running) return;
    this.running = true;
    void this.subscribe();
    this.statusTimer = setInterval(() => void this.poll(), this.options.statusIntervalMs);
    this.statusTimer.unref();
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.statusTimer) clearInterval(this.statusTimer);
    this.retryTimer = this.statusTimer = null;
    const subs = this.subscriptions;
    this.subscriptions = [];
    await Promise.allSettled(subs.map((s) => s.unsubscribe()));
  }

  private async subscribe(): Promise<void> {
    const node = this.node();
    try {
      const blocks = await node.subscribeNewBlocks((value) => this.deliver(() => this.listener.newBlock(newBlockMessage(value))));
      this.subscriptions.push(blocks);
      const txs = await node.subscribeTxs((tx) =>
        this.deliver(() => {
          const { states, events } = txMessages(tx);
          if (states.length || events.length) this.listener.tx(states, events);
        }),
      );
      this.subscriptions.push(txs);
      if (!this.running) return void (await this.stop());
      this.attempt = 0;
      this.report('online');
    } catch (err) {
      await Promise.allSettled(this.subscriptions.splice(0).map((s) => s.unsubscribe()));
      if (!this.running) return;
      const delay = BACKOFF_MS[Math.min(this.attempt++, BACKOFF_MS.length - 1)]!;
      this.options.log.warn(`cannot subscribe to the node's blocks; retrying in ${delay / 1000} s`, { reason: err instanceof Error ? err.message : String(err) });
      this.report('offline');
      this.retryTimer = setTimeout(() => void this.subscribe(), delay);
      this.retryTimer.unref();
    }
  }

  private async poll(): Promise<void> {
    try {
      await this.node().status({ timeoutMs: Math.max(1000, this.options.statusIntervalMs - 100) });
      if (this.subscriptions.length) this.report('online');
    } catch {
      this.report('offline');
    }
  }

  private report(status: 'online' | 'offline'): void {
    if (this.current === status || !this.running) return;
    this.current = status;
    this.listener.nodeStatus(status);
  }

  private deliver(send: () => void): void {
    try {
      send();
    } catch (err) {
      this.options.log.warn('a node event could not be turned into a dashboard message', { reason: err instanceof Error ? err.message : String(err) });
    }
  }
}
