import Router from '@koa/router';
import type { RouteContribution, ServerDeclaration } from '../../core/routes.js';
import type { HostMetrics } from './host-metrics.js';

/** The server name `/metrics` is served under (config key `metrics`). */
export const METRICS_SERVER = 'metrics';

export interface MetricsServerSettings {
  host: string;
  port: number;
  publicQuery: boolean;
}

/**
 * The `metrics` server: `GET /metrics` in the Prometheus text format. A query service for the
 * bind rules (beyond loopback only with `publicQuery` and CHAIN_PUBLIC_QUERY_ENABLED=1): the
 * figures name tools and routes, which is not for the open internet by default.
 */
export function metricsSurface(metrics: HostMetrics, settings: MetricsServerSettings): { declaration: ServerDeclaration; routes: RouteContribution[] } {
  const router = new Router();
  router.get('/metrics', async (ctx) => {
    ctx.set('content-type', metrics.contentType);
    ctx.set('cache-control', 'no-store');
    ctx.body = await metrics.scrape();
  });
  return {
    declaration: { name: METRICS_SERVER, kind: 'query', host: settings.host, port: settings.port, publicQuery: settings.publicQuery },
    routes: [{ server: METRICS_SERVER, id: 'host:metrics', capability: 'read', router }],
  };
}
