import { createToken } from 'chainhost/plugin';
import type { BdsService } from './bds-service.js';

/**
 * For the maintenance commands (host/bin), which boot the configured plugins without starting
 * them to collect every contributed indexer: the BDS service itself. Not exported from index.ts,
 * and apart from bds-tokens.ts, which the published `chainhost/plugin` re-exports: its
 * declarations must not reach the service (and through it PGlite's types, which do not compile
 * in a plugin author's Node project).
 */
export interface BdsServiceAccess {
  service(): BdsService;
}

export const BdsInternalTokens = {
  service: createToken<BdsServiceAccess>('bds.internal.service'),
};
