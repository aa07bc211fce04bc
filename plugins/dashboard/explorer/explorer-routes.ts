import Router from '@koa/router';
import { addressParam, choiceParam, contractNameParam, heightParam, intParam, optionalIntParam, stringParam, txHashParam } from '../http/params.js';
import { readContext, type DashboardServices } from '../api/dashboard-services.js';
import { CONTRACT_SORTS, SORT_ORDERS } from '../reads/contract-reads.js';
import { sendPage } from './explorer-response.js';
import { blockPage } from './pages/block-page.js';
import { contractPage, contractsPage } from './pages/contract-pages.js';
import { homePage } from './pages/home-page.js';
import { addressesPage, addressPage, eventsPage } from './pages/index-pages.js';
import { statePage } from './pages/state-page.js';
import { txPage } from './pages/tx-page.js';
import { searchTarget } from './search.js';

const MAX_OFFSET = 1_000_000_000;

/**
 * The explorer: server-rendered pages that work without JavaScript (spec §4 explorer pages plus
 * detail pages for a block, tx, contract, address and state key). Every page reads through the
 * same functions as the REST routes, so both answer the same data and errors.
 */
export function explorerRouter(services: DashboardServices): Router {
  const router = new Router();

  router.get('/', (ctx) => ctx.redirect('/explorer'));

  router.get('/explorer', async (ctx) => {
    const maxHeight = optionalIntParam(ctx.query, 'max_height', 1, Number.MAX_SAFE_INTEGER);
    const r = await readContext(services, ctx);
    sendPage(ctx, await homePage(r, services.targets, maxHeight), r.peer);
  });

  router.get('/explorer/block/:height', async (ctx) => {
    const height = heightParam(ctx.params.height!);
    const r = await readContext(services, ctx);
    sendPage(ctx, await blockPage(r, height), r.peer);
  });

  router.get('/explorer/tx/:hash', async (ctx) => {
    const hash = txHashParam(ctx.params.hash!);
    const r = await readContext(services, ctx);
    sendPage(ctx, await txPage(r, hash), r.peer);
  });

  router.get('/explorer/contracts', async (ctx) => {
    const offset = intParam(ctx.query, 'offset', 0, 0, MAX_OFFSET);
    const sort = choiceParam(ctx.query, 'sort', CONTRACT_SORTS, 'submitted_at');
    const order = choiceParam(ctx.query, 'order', SORT_ORDERS, 'desc');
    const r = await readContext(services, ctx);
    sendPage(ctx, await contractsPage(r, { offset, sort, order }), r.peer);
  });

  router.get('/explorer/contract/:name', async (ctx) => {
    const name = contractNameParam(ctx.params.name!);
    const r = await readContext(services, ctx);
    sendPage(ctx, await contractPage(r, name), r.peer);
  });

  router.get('/explorer/addresses', async (ctx) => {
    const offset = intParam(ctx.query, 'offset', 0, 0, MAX_OFFSET);
    const r = await readContext(services, ctx);
    sendPage(ctx, await addressesPage(r, offset), r.peer);
  });

  router.get('/explorer/address/:address', async (ctx) => {
    const addr = addressParam(ctx.params.address!);
    const offset = intParam(ctx.query, 'offset', 0, 0, MAX_OFFSET);
    const r = await readContext(services, ctx);
    sendPage(ctx, await addressPage(r, addr, offset), r.peer);
  });

  router.get('/explorer/events', async (ctx) => {
    const offset = intParam(ctx.query, 'offset', 0, 0, MAX_OFFSET);
    const r = await readContext(services, ctx);
    sendPage(ctx, await eventsPage(r, offset), r.peer);
  });

  router.get('/explorer/state', async (ctx) => {
    const key = stringParam(ctx.query, 'key') ?? '';
    const r = await readContext(services, ctx);
    sendPage(ctx, await statePage(r, key), r.peer);
  });

  router.get('/explorer/search', async (ctx) => {
    const r = await readContext(services, ctx);
    ctx.redirect(await searchTarget(r, stringParam(ctx.query, 'q') ?? ''));
  });

  return router;
}
