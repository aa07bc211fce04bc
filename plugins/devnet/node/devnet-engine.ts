import { Executor } from '../engine/executor.js';

/**
 * The engine the node runs: every native contract the devnet ships, with the node's fee mode.
 * Built the same way in the node and in each dry-run worker thread.
 */
export function createDevnetExecutor(options: { feeMode: 'paid_metered' | 'free_metered' }): Executor {
  return new Executor({ feeMode: options.feeMode });
}
