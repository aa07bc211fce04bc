import { z } from 'zod';

/** `plugins.simulate`: the caps in front of the node's simulate_tx (spec §5.7, simulate.md §6). */
export const simulateConfigSchema = z.strictObject({
  maxConcurrency: z.number().int().min(1).max(64).default(2),
  maxQueue: z.number().int().min(0).max(10_000).default(64),
  timeoutMs: z.number().int().min(100).max(120_000).default(10_000),
  /** Sustained dry runs per second through this plugin's tool and service; 0 = no rate cap. */
  ratePerSecond: z.number().min(0).max(10_000).default(20),
  burst: z.number().int().min(1).max(100_000).optional(),
});

export type SimulateConfig = z.output<typeof simulateConfigSchema>;
