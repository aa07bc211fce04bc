import type { ChainRpc, RpcCallOptions, RpcEvent, RpcSubscription } from '../../core/chain/rpc/chain-rpc.js';

/**
 * The devnet opens asynchronously, but other plugins must be able to resolve the node service
 * during register/init. This forwards every call to the devnet's in-process RPC once it is open.
 */
export class DeferredChainRpc implements ChainRpc {
  constructor(private readonly target: Promise<ChainRpc>) {
    target.catch(() => undefined); // the opener reports the failure; calls re-throw it
  }

  async call<T = unknown>(method: string, params?: Record<string, unknown>, options?: RpcCallOptions): Promise<T> {
    return (await this.target).call<T>(method, params, options);
  }

  async subscribe(query: string, listener: (event: RpcEvent) => void): Promise<RpcSubscription> {
    return (await this.target).subscribe(query, listener);
  }

  async close(): Promise<void> {
    // The devnet owns its RPC and closes it when the plugin stops.
  }
}
