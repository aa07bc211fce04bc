import type Koa from 'koa';
import type { CountRefusal } from 'chainhost/chain';
import type { Logger } from 'chainhost/plugin';
import type { DashboardOptions } from '../dashboard.config.js';
import type { SimulateGuard } from '../limits/simulate-guard.js';
import type { NodeTargets, ReadContext } from '../reads/node-targets.js';
import { stringParam } from '../http/params.js';

/** What the dashboard's routes and pages share. */
export interface DashboardServices {
  options: DashboardOptions;
  targets: NodeTargets;
  /** Null when dry runs through the dashboard are disabled. */
  simulate: SimulateGuard | null;
  /** Counts a dry run refused by the route itself (switched off, bad or over-large payload). */
  countSimulateRefusal: CountRefusal<'disabled' | 'invalid_payload' | 'payload_too_large'>;
  /** True when the node is in-process (the devnet), not an RPC client of `node.url`. */
  inProcessNode: boolean;
  log: Logger;
}

/** The read context of a request: the configured node, or the `?rpc=` peer when allowed. */
export function readContext(services: DashboardServices, ctx: Koa.Context): Promise<ReadContext> {
  return services.targets.forRequest(stringParam(ctx.query, 'rpc'));
}
