import type { BdsIndexer } from '../indexer-point.js';
import { contractsIndexer } from './contracts-indexer.js';
import { rewardsIndexer } from './rewards-indexer.js';
import { shieldedIndexer } from './shielded-indexer.js';
import { statePatchesIndexer } from './state-patches-indexer.js';

/** The projections of the v7 schema the BDS plugin contributes itself, in write order. */
export const BUILTIN_INDEXERS: readonly BdsIndexer[] = [rewardsIndexer, contractsIndexer, shieldedIndexer, statePatchesIndexer];
