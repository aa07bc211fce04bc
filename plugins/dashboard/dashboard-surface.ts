import Router from '@koa/router';
import type Koa from 'koa';
import type { ChainNode, CountRefusal } from 'chainhost/chain';
import type { Logger, QueryPathRegistry, RouteContribution, ServerDeclaration, WebSocketContribution } from 'chainhost/plugin';
import { addAbciQueryRoute } from './api/abci-query-route.js';
import { addChainRoutes } from './api/chain-routes.js';
import { addContractRoutes } from './api/contract-routes.js';
import type { DashboardServices } from './api/dashboard-services.js';
import { addNodeRoutes } from './api/node-routes.js';
import type { DashboardOptions } from './dashboard.config.js';
import { explorerErrorPages } from './explorer/explorer-response.js';
import { explorerRouter } from './explorer/explorer-routes.js';
import { ClientAddressResolver } from './limits/client-address.js';
import { InFlightGate } from './limits/in-flight-gate.js';
import { clientKeyMiddleware, DashboardRateLimiter, rateLimitMiddleware, type SharedLimitStore } from './limits/rate-limit.js';
import { SimulateGuard } from './limits/simulate-guard.js';
import { NodeTargets } from './reads/node-targets.js';
import { WsHub } from './ws/ws-hub.js';

export const DASHBOARD_SERVER = 'dashboard';

export interface DashboardSurfaceOptions {
  options: DashboardOptions;
  /** The node to read (resolved on first use, so the devnet can provide it in-process). */
  node: () => ChainNode;
  /** The configured node URL (`node.url`), shown by `/api/config` and the root of peer inspection. */
  nodeUrl: string;
  /** Query paths of this host: BDS routes found here are answered in-process. */
  registry: QueryPathRegistry | null;
  inProcessNode: boolean;
  log: Logger;
  /** Told of each dry run the dashboard refuses (the host's refusal counter). */
  countSimulateRefusal?: CountRefusal<DashboardRefusal>;
  /** Where replicas share their limits (`CHAIN_REDIS_URL`); null keeps them in this process. */
  sharedLimits?: SharedLimitStore | null;
}

/** Why the dashboard refuses a dry run before or while it runs. */
export type DashboardRefusal = 'disabled' | 'invalid_payload' | 'payload_too_large' | 'rate_limited' | 'capacity' | 'timeout';
export const DASHBOARD_REFUSALS: readonly DashboardRefusal[] = ['disabled', 'invalid_payload', 'payload_too_large', 'rate_limited', 'capacity', 'timeout'];

/**
 * Everything the dashboard contributes to its server: the limit middleware (client key →
 * explorer error pages → rate limit → in-flight cap), the REST router, the explorer router and
 * the `/ws` hub. The host owns the HTTP server and binds it under the public-query rule.
 */
export class DashboardSurface {
  readonly rateLimiter: DashboardRateLimiter | null;
  readonly inFlight: InFlightGate | null;
  readonly hub: WsHub;
  readonly services: DashboardServices;
  private readonly addresses: ClientAddressResolver;

  constructor(private readonly config: DashboardSurfaceOptions) {
    const { options, log } = config;
    const countSimulateRefusal = config.countSimulateRefusal ?? (() => undefined);
    let node: ChainNode | null = null;
    const nodeOnce = () => (node ??= config.node());
    this.addresses = new ClientAddressResolver(options.trustedProxies);
    const shared = config.sharedLimits ?? null;
    this.rateLimiter = options.limits.enabled ? new DashboardRateLimiter(options.limits, Date.now, shared) : null;
    this.inFlight = options.limits.enabled ? new InFlightGate(options.limits.maxInFlight) : null;
    this.services = {
      options,
      targets: new NodeTargets({
        node: nodeOnce,
        defaultUrl: config.nodeUrl,
        registry: config.registry,
        requestTimeoutMs: options.requestTimeoutMs,
        peerInspection: options.peerInspection,
      }),
      simulate: options.simulate.enabled ? new SimulateGuard(options.simulate, options.limits.maxTrackedClients, countSimulateRefusal, shared) : null,
      countSimulateRefusal,
      inProcessNode: config.inProcessNode,
      log,
    };
    this.hub = new WsHub({ limits: options.websocket, rateLimiter: this.rateLimiter, addresses: this.addresses, node: nodeOnce, log: log.child('ws') });
  }

  middleware(): Koa.Middleware[] {
    const chain: Koa.Middleware[] = [clientKeyMiddleware(this.addresses), explorerErrorPages(this.config.log)];
    if (this.rateLimiter) chain.push(rateLimitMiddleware(this.rateLimiter));
    if (this.inFlight) chain.push(this.inFlight.middleware());
    return chain;
  }

  server(): ServerDeclaration {
    const { host, port, publicQuery, simulate } = this.config.options;
    // simulate_tx/<hex> carries its payload in the URL: headers must fit the largest allowed payload
    // (plus room for the route and ordinary headers) so the route, not Node's parser, answers.
    const maxHeaderBytes = Math.max(16 * 1024, simulate.maxPayloadHexChars + 16 * 1024);
    return { name: DASHBOARD_SERVER, kind: 'query', host, port, publicQuery, middleware: this.middleware(), bodyLimitBytes: 16 * 1024, maxHeaderBytes };
  }

  routes(): RouteContribution[] {
    const api = new Router();
    addNodeRoutes(api, this.services);
    addChainRoutes(api, this.services);
    addContractRoutes(api, this.services);
    addAbciQueryRoute(api, this.services);
    return [
      { server: DASHBOARD_SERVER, id: 'dashboard:api', capability: 'read', router: api },
      { server: DASHBOARD_SERVER, id: 'dashboard:explorer', capability: 'read', router: explorerRouter(this.services) },
    ];
  }

  webSocket(): WebSocketContribution {
    return this.hub.contribution(DASHBOARD_SERVER);
  }

  async stop(): Promise<void> {
    await this.hub.stop();
    await this.services.targets.close();
  }
}
