import { chainIdGuardFor, ChainSimulator, simulationRefusalCounter } from 'chainhost/chain';
import { CoreTokens, definePlugin } from 'chainhost/plugin';
import { simulateConfigSchema } from './simulate.config.js';
import { SimulatorToken } from './simulator-token.js';
import { simulateTools } from './tools.js';

/** The dry-run tool, behind caps (concurrency, queue, rate, timeout); publishes the capped simulator. */
export const simulatePlugin = definePlugin({
  name: 'simulate',
  description: 'simulate_transaction: dry-run a contract call to preview writes and estimate chi (read).',
  after: ['devnet'],
  config: simulateConfigSchema,
  init(ctx) {
    const node = ctx.resolve(CoreTokens.chainNode);
    const countRefusal = simulationRefusalCounter(ctx.resolve(CoreTokens.metrics), 'simulate', ['rate_limited', 'capacity', 'timeout']);
    const simulator = new ChainSimulator(node, ctx.options, countRefusal);
    ctx.provide(SimulatorToken, simulator);
    for (const tool of simulateTools({ node, simulator, guard: chainIdGuardFor(node, ctx.settings.chainId), includeRaw: ctx.settings.includeRaw })) ctx.tools.add(tool);
  },
});
