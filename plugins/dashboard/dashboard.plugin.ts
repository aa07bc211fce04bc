import { simulationRefusalCounter } from 'chainhost/chain';
import { CoreTokens, definePlugin } from 'chainhost/plugin';
import { dashboardConfigSchema, dashboardEnvBindings } from './dashboard.config.js';
import { DASHBOARD_REFUSALS, DashboardSurface } from './dashboard-surface.js';
import { connectSharedRedis, firstConnection } from './limits/redis-client.js';

/**
 * The optional dashboard (spec §1.8, §4): REST routes, the `/ws` feed and the explorer on a
 * query server of its own (default 127.0.0.1:8080). Reads the host's node — the devnet
 * in-process when it is loaded — and the bds plugin's query paths when that is loaded.
 */
export const dashboardPlugin = definePlugin({
  name: 'dashboard',
  description: 'Dashboard REST API, WebSocket feed and explorer over the configured node',
  after: ['devnet', 'bds'],
  config: dashboardConfigSchema,
  env: dashboardEnvBindings,
  async init(ctx) {
    if (!ctx.options.enabled) return;
    const redis = ctx.options.redisUrl ? connectSharedRedis(ctx.options.redisUrl, ctx.log.child('redis')) : null;
    if (redis) {
      ctx.onStop(() => redis.disconnect());
      await firstConnection(redis);
    }
    const surface = new DashboardSurface({
      options: ctx.options,
      node: () => ctx.resolve(CoreTokens.chainNode),
      nodeUrl: ctx.settings.nodeUrl,
      registry: ctx.queryPaths.registry,
      inProcessNode: ctx.loadedPlugins.includes('devnet'),
      log: ctx.log,
      countSimulateRefusal: simulationRefusalCounter(ctx.resolve(CoreTokens.metrics), 'dashboard', DASHBOARD_REFUSALS),
      sharedLimits: redis && { redis, prefix: `${ctx.options.redisKeyPrefix}`, log: ctx.log.child('limits') },
    });
    ctx.onStop(() => surface.stop());
    ctx.servers.declare(surface.server());
    for (const route of surface.routes()) ctx.routes.add(route);
    ctx.routes.addWebSocket(surface.webSocket());
  },
});
