import { z } from 'zod';
import type { EnvBinding } from 'chainhost/plugin';

const contractName = z.string().regex(/^[a-zA-Z][a-zA-Z0-9_]*$/, 'must be a contract name');

const planInt = (min: number, max: number) => z.number({ error: 'must be an integer' }).int('must be an integer').min(min, `must be ${min}..${max}`).max(max, `must be ${min}..${max}`);

/** `plugins.dex`: the contracts, the scan bounds, the submit waits and the plan store. */
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
   * A submit refuses (`plan_expiring`: nothing sent, the plan consumed) unless the plan's deadline leaves
   * room for one block per call plus this many more, at the block time measured from the node.
   */
  submitSafetyBlocks: z.number().int().min(0).max(100).default(2),
  /** Contribute the DEX candle projection to BDS when the bds plugin is loaded. */
  candles: z.boolean().default(true),
  /** The in-memory store of DEX plans (`dex_plan_*` issues them, `dex_submit_*` consumes one). */
  plan: z.strictObject({
    /** How long a plan can be submitted after it was issued. */
    ttlSeconds: planInt(30, 900).default(300),
    /** Plans kept at once; beyond it the oldest is evicted. */
    maxEntries: planInt(1, 1000).default(256),
  }).prefault({}),
});

/** The spec's variables for the plan store (part 2). */
export const dexEnvBindings: readonly EnvBinding[] = [
  { variable: 'CHAIN_MCP_DEX_PLAN_TTL_SECONDS', path: ['plan', 'ttlSeconds'], type: 'integer' },
  { variable: 'CHAIN_MCP_DEX_PLAN_MAX_ENTRIES', path: ['plan', 'maxEntries'], type: 'integer' },
];

export type DexConfig = z.output<typeof dexConfigSchema>;
