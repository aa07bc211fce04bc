import { z } from 'zod';
import { mnemonicProblem } from 'chainhost/chain';
import { EXACT_ORIGIN_RULE, isExactOrigin } from 'chainhost/plugin';
import type { EnvBinding } from 'chainhost/plugin';

export const devnetConfig = z.strictObject({
  /** Chain data directory; default `<home>/devnet`. */
  home: z.string().min(1).optional(),
  /** Serve the CometBFT RPC/WebSocket and metrics; false keeps the node in-process only (tests). */
  listen: z.boolean().default(true),
  host: z.string().min(1).default('127.0.0.1'),
  port: z.number().int().min(0, 'must be 0..65535').max(65535, 'must be 0..65535').default(26657),
  metricsPort: z.number().int().min(0, 'must be 0..65535').max(65535, 'must be 0..65535').nullable().default(9108),
  /** Serving the node RPC beyond loopback must be asked for explicitly (containers). */
  publicRpc: z.boolean().default(false),
  /**
   * Browser origins whose pages may open the node's `/websocket` (exact `scheme://host[:port]`,
   * no `*`), e.g. a dapp under development; an upgrade from any other `Origin` is 403. Clients
   * that send no Origin (SDKs, CLIs) are unaffected.
   */
  allowedOrigins: z.array(z.string().refine(isExactOrigin, EXACT_ORIGIN_RULE)).default([]),
  /** 0 = a block as soon as transactions arrive; otherwise one block every N ms. */
  blockTimeMs: z.number().int().min(0, 'must be 0..600000').max(600_000, 'must be 0..600000').default(0),
  accounts: z.number().int().min(1, 'must be 1..1000').max(1000, 'must be 1..1000').default(10),
  mnemonic: z.string().refine((m) => mnemonicProblem(m) === null, 'must be a valid 12 or 24 word BIP39 mnemonic').optional(),
  reset: z.boolean().default(false),
  /** Print the dev accounts (addresses, balances; never keys) and the public test mnemonic at start. */
  printAccounts: z.boolean().default(true),
});

/** Move the node's ports without editing the config (`CHAIN_DEVNET_PORT=36657 npm start`). */
export const devnetEnvBindings: readonly EnvBinding[] = [
  { variable: 'CHAIN_DEVNET_PORT', path: ['port'], type: 'integer' },
  { variable: 'CHAIN_DEVNET_METRICS_PORT', path: ['metricsPort'], type: 'integer' },
];

export type DevnetConfig = z.output<typeof devnetConfig>;
