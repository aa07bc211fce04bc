import { ChainNode } from '../core/chain/node.js';
import { HttpChainRpc } from '../core/chain/rpc/http-chain-rpc.js';

/** The node of a host without the devnet: JSON-RPC over HTTP (and WebSocket) to `node.url`. */
export function createDefaultChainNode(url: string): ChainNode {
  return new ChainNode(new HttpChainRpc(url));
}
