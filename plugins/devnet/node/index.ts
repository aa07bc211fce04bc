/** The devnet node's public surface (for the devnet plugin's wiring and for tools and tests). */
export { Devnet, DEFAULT_CHAIN_ID, DEFAULT_MNEMONIC, deriveAccounts } from './devnet.js';
export type { DevAccount, DevnetOptions, ListenOptions, Listening } from './devnet.js';
export { DevnetChainRpc } from './devnet-chain-rpc.js';
export { DevnetRpc, NODE_VERSION } from './devnet-rpc.js';
export { DEFAULT_NODE_CONFIG, loadNodeConfig, nodeConfigPath, writeNodeConfig } from './node-config.js';
export type { NodeConfig } from './node-config.js';
export type { QueryResolver } from './abci-query.js';
export type { StoredBlock } from './stored-block.js';
