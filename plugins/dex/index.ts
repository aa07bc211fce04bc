export { dexPlugin, DexTokens } from './dex.plugin.js';
export { dexConfigSchema, type DexConfig } from './dex.config.js';
export type { PlanRegistry, PlanState, IssuedPlan } from './plan-registry.js';
export type { PlanCall, PlanOperation } from './plan-calls.js';
