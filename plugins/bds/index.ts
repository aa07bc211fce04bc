/**
 * The public surface of the bds plugin — the only module other plugins may import: the plugin
 * value, the indexer extension point with its types, and the database handle token.
 */
export { bdsPlugin } from './bds.plugin.js';
export { bdsIndexers } from './indexer-point.js';
export type {
  BdsIndexer,
  BdsIndexerRegistrar,
  IndexedBlock,
  IndexedEvent,
  IndexedEventInput,
  IndexedReward,
  IndexedStateChange,
  IndexedTransaction,
  OriginType,
} from './indexer-point.js';
export type { BdsMigration } from './database/migrations.js';
export { BdsTokens, type BdsDatabaseHandle } from './bds-tokens.js';
export { bdsConfigSchema, type BdsOptions } from './bds.config.js';
/** The embedded database's own thread (PGlite off the event loop); GraphQL's standalone server opens one too. */
export { PgliteThread } from './database/pglite-thread.js';
