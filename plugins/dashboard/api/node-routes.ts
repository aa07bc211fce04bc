import type Router from '@koa/router';
import { redactUrl } from 'chainhost/plugin';
import { readNode } from '../http/node-errors.js';
import { sendJson } from '../http/json-response.js';
import { intParam, optionalIntParam } from '../http/params.js';
import { monitoring } from '../reads/monitoring.js';
import { validatorDashboard } from '../reads/validator-dashboard.js';
import { readContext, type DashboardServices } from './dashboard-services.js';

/** Node routes (spec §4): config, status, net_info, validators, validator_dashboard, consensus, monitoring. */
export function addNodeRoutes(router: Router, services: DashboardServices): void {
  router.get('/api/config', (ctx) => {
    sendJson(ctx, {
      default_rpc_url: redactUrl(services.targets.defaultUrl),
      node: services.inProcessNode ? 'in-process' : 'rpc',
      peer_inspection: services.options.peerInspection.enabled,
      websocket_path: '/ws',
    });
  });

  router.get('/api/status', async (ctx) => {
    const r = await readContext(services, ctx);
    sendJson(ctx, await readNode('status', () => r.node.status(r.call)));
  });

  router.get('/api/net_info', async (ctx) => {
    const r = await readContext(services, ctx);
    sendJson(ctx, await readNode('net_info', () => r.node.netInfo(r.call)));
  });

  // Upstream stopped at CometBFT's first page of 30; here the page is chosen and defaults to 100.
  router.get('/api/validators', async (ctx) => {
    const height = optionalIntParam(ctx.query, 'height', 1, Number.MAX_SAFE_INTEGER);
    const page = intParam(ctx.query, 'page', 1, 1, 1_000_000);
    const perPage = intParam(ctx.query, 'per_page', 100, 1, 100);
    const r = await readContext(services, ctx);
    sendJson(ctx, await readNode('validators', () => r.node.validators(height, { page, perPage }, r.call)));
  });

  router.get('/api/validator_dashboard', async (ctx) => {
    sendJson(ctx, await validatorDashboard(await readContext(services, ctx)));
  });

  router.get('/api/consensus', async (ctx) => {
    const r = await readContext(services, ctx);
    sendJson(ctx, await readNode('consensus_state', () => r.node.consensusState(r.call)));
  });

  router.get('/api/monitoring', async (ctx) => {
    sendJson(ctx, await monitoring(await readContext(services, ctx)));
  });
}
