import { ChainNode, HttpChainRpc } from 'chainhost/chain';
import { CoreTokens, type Token } from 'chainhost/plugin';
import type { BdsService } from '../bds-service.js';
import { BdsInternalTokens } from '../bds-internal-tokens.js';
import { ChainBlockSource, type BlockSource } from '../block/chain-block-source.js';

/**
 * What a maintenance command works with: the BDS service of a host whose configured plugins were
 * registered and initialised but not started (so every contributed indexer and its tables are
 * known, and no worker writes), the RPC source, and the host's own node as the trusted reference.
 */
export interface MaintenanceHost {
  resolve<T>(token: Token<T>): T;
}

export interface MaintenanceSession {
  service: BdsService;
  source: BlockSource;
  sourceNode: ChainNode;
  /** The host's node when `--rpc-url` names another source and the host's node answers; null otherwise. */
  trusted: BlockSource | null;
  /** The node behind `trusted` (its chain id is checked against the source's). */
  trustedNode: ChainNode | null;
  close(): Promise<void>;
}

export async function openMaintenanceSession(host: MaintenanceHost, rpcUrl?: string): Promise<MaintenanceSession> {
  const service = host.resolve(BdsInternalTokens.service).service();
  const local = host.resolve(CoreTokens.chainNode);
  const remote = rpcUrl ? new ChainNode(new HttpChainRpc(normalizeRpcUrl(rpcUrl))) : null;
  const sourceNode = remote ?? local;
  let trusted: BlockSource | null = null;
  if (remote) {
    const reachable = await local.status({ timeoutMs: 3000 }).then(() => true, () => false);
    if (reachable) trusted = new ChainBlockSource(local, { label: 'the local node' });
  }
  return {
    service,
    source: new ChainBlockSource(sourceNode, { label: rpcUrl ? normalizeRpcUrl(rpcUrl) : 'the configured node' }),
    sourceNode,
    trusted,
    trustedNode: trusted ? local : null,
    close: async () => {
      await remote?.close().catch(() => undefined);
      await service.db.close();
    },
  };
}

/** `tcp://0.0.0.0:26657` (CometBFT's laddr form) → `http://127.0.0.1:26657` (bds.md §9.1). */
export function normalizeRpcUrl(url: string): string {
  return url.replace(/^tcp:\/\//, 'http://').replace(/\/\/(0\.0\.0\.0|\[::\]|::)(?=:|\/|$)/, '//127.0.0.1');
}
