import type { AbciQueryParams, ChainRpc, DecodedAbciQuery, RpcCallOptions, RpcEvent, RpcSubscription } from 'chainhost/chain';
import type { DevnetChainRpc } from './node/devnet-chain-rpc.js';

/**
 * The devnet opens asynchronously, but other plugins must be able to resolve the node service
 * during register/init. This forwards every call to the devnet's in-process RPC once it is open.
 */
export class DeferredChainRpc implements ChainRpc {
  /** The devnet's RPC once open: calls then go straight to it, without waiting on `target` each time. */
  private ready: DevnetChainRpc | undefined;

  constructor(private readonly target: Promise<DevnetChainRpc>) {
    // The opener reports a failure; calls re-throw it.
    target.then((rpc) => (this.ready = rpc), () => undefined);
  }

  call<T = unknown>(method: string, params?: Record<string, unknown>, options?: RpcCallOptions): Promise<T> {
    return this.ready ? this.ready.call<T>(method, params, options) : this.target.then((rpc) => rpc.call<T>(method, params, options));
  }

  abciQueryDecoded(params: AbciQueryParams, options?: RpcCallOptions): Promise<DecodedAbciQuery> {
    return this.ready ? this.ready.abciQueryDecoded(params, options) : this.target.then((rpc) => rpc.abciQueryDecoded(params, options));
  }

  async subscribe(query: string, listener: (event: RpcEvent) => void): Promise<RpcSubscription> {
    return (await this.target).subscribe(query, listener);
  }

  async close(): Promise<void> {
    // The devnet owns its RPC and closes it when the plugin stops.
  }
}
