import type Router from '@koa/router';
import { sendJson } from '../http/json-response.js';
import { addressParam, choiceParam, contractNameParam, pageParams } from '../http/params.js';
import { address, addresses } from '../reads/address-reads.js';
import { contract, contracts, CONTRACT_SORTS, recentEvents, SORT_ORDERS } from '../reads/contract-reads.js';
import { readContext, type DashboardServices } from './dashboard-services.js';

/** Contract, event and address routes (spec §4). Events and addresses need BDS. */
export function addContractRoutes(router: Router, services: DashboardServices): void {
  const maxLimit = services.options.limits.maxPageSize;

  router.get('/api/contract/:name', async (ctx) => {
    const name = contractNameParam(ctx.params.name!);
    sendJson(ctx, await contract(await readContext(services, ctx), name));
  });

  router.get('/api/contracts', async (ctx) => {
    const page = pageParams(ctx.query, 100, maxLimit);
    const sort = choiceParam(ctx.query, 'sort', CONTRACT_SORTS, 'submitted_at');
    const order = choiceParam(ctx.query, 'order', SORT_ORDERS, 'desc');
    sendJson(ctx, await contracts(await readContext(services, ctx), { ...page, sort, order }));
  });

  router.get('/api/recent_events', async (ctx) => {
    const page = pageParams(ctx.query, 50, maxLimit);
    sendJson(ctx, await recentEvents(await readContext(services, ctx), page));
  });

  router.get('/api/addresses', async (ctx) => {
    const page = pageParams(ctx.query, 50, maxLimit);
    sendJson(ctx, await addresses(await readContext(services, ctx), page));
  });

  router.get('/api/address/:address', async (ctx) => {
    const addr = addressParam(ctx.params.address!);
    const page = pageParams(ctx.query, 50, maxLimit);
    sendJson(ctx, await address(await readContext(services, ctx), addr, page));
  });
}
