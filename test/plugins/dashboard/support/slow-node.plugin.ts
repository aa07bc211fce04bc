import { z } from 'zod';
import { ChainNode } from '../../../../core/chain/node.js';
import { RpcError, type ChainRpc } from '../../../../core/chain/rpc/chain-rpc.js';
import { CoreTokens } from '../../../../core/core-tokens.js';
import { definePlugin } from '../../../../core/plugin.js';

/**
 * Test support: a node whose answers the test releases by hand, to hold requests in flight
 * (in-flight cap, dry-run concurrency and deadlines). `status` answers at once unless
 * `holdStatus` is set; `abci_query` for `/simulate_tx/…` always waits for `release()`; every
 * other query path is unknown to it (no BDS, no contracts).
 */
export interface SlowNodeControl {
  holdStatus: boolean;
  waiting: Array<() => void>;
  calls: number;
  release(): void;
}

// On globalThis: the host imports this file as an ES module while the test's static import may
// be its CommonJS twin (see dashboard-host.ts), and both must steer the same node.
const shared = globalThis as { __dashboardSlowNode?: SlowNodeControl };
export const slowNode: SlowNodeControl = (shared.__dashboardSlowNode ??= {
  holdStatus: false,
  waiting: [],
  calls: 0,
  release(): void {
    for (const go of this.waiting.splice(0)) go();
  },
});

const STATUS = {
  node_info: { network: 'chain-slow-1', moniker: 'slow', id: 'a'.repeat(40), version: '0.38.12', channels: '', listen_addr: '', protocol_version: { p2p: '8', block: '11', app: '0' }, other: { tx_index: 'on', rpc_address: 'tcp://127.0.0.1:26657' } },
  sync_info: { latest_block_height: '1', latest_block_hash: 'AB'.repeat(32), latest_app_hash: '', latest_block_time: '2026-01-01T00:00:00Z', earliest_block_hash: '', earliest_app_hash: '', earliest_block_height: '1', earliest_block_time: '2026-01-01T00:00:00Z', catching_up: false },
  validator_info: { address: 'CD'.repeat(20), pub_key: { type: 'tendermint/PubKeyEd25519', value: Buffer.alloc(32, 7).toString('base64') }, voting_power: '10' },
};

function held<T>(value: T, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    slowNode.waiting.push(() => resolve(value));
    signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}

const rpc: ChainRpc = {
  async call<T>(method: string, params: Record<string, unknown> = {}, options: { signal?: AbortSignal } = {}): Promise<T> {
    slowNode.calls++;
    if (method === 'status') return (slowNode.holdStatus ? held(STATUS, options.signal) : STATUS) as Promise<T>;
    if (method === 'abci_query' && String(params.path).startsWith('/simulate_tx/')) {
      const value = Buffer.from(JSON.stringify({ status: 0, chi_used: 5, state: [], result: 'None' })).toString('base64');
      // Like a node that ignores the abort: only release() settles it.
      return new Promise<T>((resolve) => slowNode.waiting.push(() => resolve({ response: { code: 0, log: '', info: 'dict', index: '0', key: '', value, proofOps: null, height: '1', codespace: '' } } as T)));
    }
    if (method === 'abci_query') {
      // A node without BDS or any other route: what CometBFT relays for an unknown path.
      const route = String(params.path).split('/').filter(Boolean)[0] ?? '';
      return { response: { code: 1, log: `Unknown query path: ${route}`, info: '', index: '0', key: null, value: 'AA==', proofOps: null, height: '1', codespace: '' } } as T;
    }
    throw new RpcError(-32601, 'Method not found', method);
  },
  async subscribe() {
    return { unsubscribe: async () => undefined };
  },
  async close() {},
};

export default definePlugin({
  name: 'slow-node',
  description: 'test: a node whose answers the test releases',
  config: z.object({}),
  register(ctx) {
    ctx.provide(CoreTokens.chainNode, new ChainNode(rpc));
  },
});
