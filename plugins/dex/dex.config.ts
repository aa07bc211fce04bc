import { z } from 'zod';

const contractName = z.string().regex(/^[a-zA-Z][a-zA-Z0-9_]*$/, 'must be a contract name');

/**
 * `plugins.dex`. Plan TTL and capacity are host settings (CHAIN_MCP_DEX_PLAN_TTL_SECONDS,
 * CHAIN_MCP_DEX_PLAN_MAX_ENTRIES); this slice only names the contracts and bounds the scans.
 */
export const dexConfigSchema = z.strictObject({
  /** The canonical names (spec part 2); override only for a network that deployed them elsewhere. */
  contracts: z
    .strictObject({
      pairs: contractName.default('con_pairs'),
      router: contractName.default('con_dex'),
      helper: contractName.default('con_dex_helper'),
    })
    .prefault({}),
  /** A route search reads at most this many pairs; larger registries need an explicit `path`. */
  maxScanPairs: z.number().int().min(1).max(5000).default(500),
  /** How long a submit waits for each call's block. */
  waitTimeoutMs: z.number().int().min(100).max(300_000).default(30_000),
  /**
   * A submit refuses (`plan_expiring`, the plan stays active) unless the plan's deadline leaves
   * room for one block per call plus this many more, at the block time measured from the node.
   */
  submitSafetyBlocks: z.number().int().min(0).max(100).default(2),
  /** Contribute the DEX candle projection to BDS when the bds plugin is loaded. */
  candles: z.boolean().default(true),
});

export type DexConfig = z.output<typeof dexConfigSchema>;
