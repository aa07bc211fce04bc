import { simulationRefusalCounter } from '../../core/chain/simulation-refusals.js';
import { CoreTokens } from '../../core/core-tokens.js';
import { definePlugin, type PluginContext } from '../../core/plugin.js';
import { dashboardConfigSchema, type DashboardOptions } from './dashboard.config.js';
import { DASHBOARD_REFUSALS, DashboardSurface } from './dashboard-surface.js';
import { connectSharedRedis } from './limits/redis-client.js';
import type { Redis } from 'ioredis';

const surfaces = new WeakMap<PluginContext<DashboardOptions>, { surface: DashboardSurface; redis: Redis | null }>();

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
  init(ctx) {
    if (!ctx.options.enabled) return;
    const redis = ctx.settings.redisUrl ? connectSharedRedis(ctx.settings.redisUrl, ctx.log.child('redis')) : null;
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
    surfaces.set(ctx, { surface, redis });
    ctx.servers.declare(surface.server());
    for (const route of surface.routes()) ctx.routes.add(route);
    ctx.routes.addWebSocket(surface.webSocket());
  },
  async stop(ctx) {
    const running = surfaces.get(ctx);
    surfaces.delete(ctx);
    await running?.surface.stop();
    running?.redis?.disconnect();
  },
});
