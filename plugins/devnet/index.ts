export { devnetPlugin } from './devnet.plugin.js';
export type { DevnetConfig } from './devnet.config.js';
export { Devnet, DEFAULT_CHAIN_ID, DEFAULT_MNEMONIC, type DevAccount, type DevnetOptions, type Listening } from './node/devnet.js';
