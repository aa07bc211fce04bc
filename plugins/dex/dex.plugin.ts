import { chainIdGuardFor, submitRefusalCounter, transactionSubmitterFor, TransactionSubmitterToken } from 'chainhost/chain';
import { CoreTokens, createToken, definePlugin, signerArgumentsOf } from 'chainhost/plugin';
import { dexConfigSchema, dexEnvBindings } from './dex.config.js';
import type { DexServices } from './dex-services.js';
import { BlockTimeMeter } from './block-time.js';
import { DexReader } from './dex-state.js';
import { contributeCandles } from './candles/candle-contribution.js';
import { contributeCandleGraphql } from './candles/candle-graphql.js';
import { PlanRegistry } from './plan-registry.js';
import { eventTools } from './tools/event-tools.js';
import { helperTools } from './tools/helper-tools.js';
import { marketTools } from './tools/market-tools.js';
import { planTools } from './tools/plan-tools.js';

export const DexTokens = {
  /** The process-local plan store (read it, e.g. for a dashboard; only the DEX tools issue and claim). */
  planRegistry: createToken<PlanRegistry>('dex-plan-registry'),
};

/**
 * The DEX plugin: read tools (prices, pairs, quotes, plans, events) and unsafe tools (plan
 * submission, helper buy/sell) over con_pairs / con_dex / con_dex_helper, and — when bds is
 * loaded — the candle projection with `/dex_candles/<market_id>/…`. Wiring only; see tools/.
 */
export const dexPlugin = definePlugin({
  name: 'dex',
  description: 'DEX tools: prices, pairs, routed quotes, plan-first swaps and liquidity, helper buy/sell, live and indexed events, candles.',
  after: ['devnet', 'wallet', 'bds', 'graphql'],
  config: dexConfigSchema,
  env: dexEnvBindings,
  register(ctx) {
    ctx.provide(DexTokens.planRegistry, new PlanRegistry(ctx.options.plan));
  },
  async init(ctx) {
    const node = ctx.resolve(CoreTokens.chainNode);
    const chainId = ctx.settings.chainId;
    const countRefusal = submitRefusalCounter(ctx.resolve(CoreTokens.metrics));
    const services: DexServices = {
      node,
      reader: new DexReader(node, ctx.options.contracts),
      registry: ctx.resolve(DexTokens.planRegistry),
      chainId,
      market: { maxScanPairs: ctx.options.maxScanPairs },
      now: Date.now,
      sender: () => ctx.tryResolve(TransactionSubmitterToken) ?? transactionSubmitterFor(node, { chainId, countRefusal, log: ctx.log }),
      guard: chainIdGuardFor(node, chainId),
      waitTimeoutMs: ctx.options.waitTimeoutMs,
      includeRaw: ctx.settings.includeRaw,
      blockTime: new BlockTimeMeter(node),
      safetyBlocks: ctx.options.submitSafetyBlocks,
      queryPaths: () => ctx.queryPaths.registry,
      signers: signerArgumentsOf(ctx),
    };
    for (const tool of [...marketTools(services), ...planTools(services), ...helperTools(services), ...eventTools(services)]) ctx.tools.add(tool);
    if (ctx.options.candles && (await contributeCandles(ctx, ctx.options.contracts.pairs))) {
      await contributeCandleGraphql(ctx, ctx.options.contracts.pairs);
    }
  },
});
