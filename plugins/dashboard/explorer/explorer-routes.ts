import Router from '@koa/router';
import { addressParam, choiceParam, contractNameParam, heightParam, idParam, intParam, optionalIntParam, stringParam, txHashParam } from '../http/params.js';
import { readContext, type DashboardServices } from '../api/dashboard-services.js';
import { CONTRACT_SORTS, SORT_ORDERS } from '../reads/contract-reads.js';
import { sendPage } from './explorer-response.js';
import { blockPage } from './pages/block-page.js';
import { contractPage, contractsPage } from './pages/contract-pages.js';
import { homePage } from './pages/home-page.js';
import { addressesPage, eventsPage } from './pages/index-pages.js';
import { addressPage } from './pages/address-page.js';
import { dexPage, pairPage } from './pages/dex-pages.js';
import { tokenPage, tokensPage } from './pages/token-pages.js';
import { CANDLE_INTERVALS } from '../reads/dex-reads.js';
import { addLiveScriptRoute } from './live-route.js';
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
  addLiveScriptRoute(router);

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
    const before = optionalIntParam(ctx.query, 'before', 1, Number.MAX_SAFE_INTEGER);
    const r = await readContext(services, ctx);
    sendPage(ctx, await addressPage(r, addr, { offset, before }), r.peer);
  });

  router.get('/explorer/tokens', async (ctx) => {
    const offset = intParam(ctx.query, 'offset', 0, 0, MAX_OFFSET);
    const r = await readContext(services, ctx);
    sendPage(ctx, await tokensPage(r, offset), r.peer);
  });

  router.get('/explorer/token/:contract', async (ctx) => {
    const contract = contractNameParam(ctx.params.contract!, 'contract');
    const before = optionalIntParam(ctx.query, 'before', 1, Number.MAX_SAFE_INTEGER);
    const r = await readContext(services, ctx);
    sendPage(ctx, await tokenPage(r, contract, before), r.peer);
  });

  router.get('/explorer/dex', async (ctx) => {
    const offset = intParam(ctx.query, 'offset', 0, 0, MAX_OFFSET);
    const r = await readContext(services, ctx);
    sendPage(ctx, await dexPage(r, offset), r.peer);
  });

  router.get('/explorer/dex/pair/:id', async (ctx) => {
    const id = idParam(ctx.params.id!, 'id', 'pair id');
    const interval = choiceParam(ctx.query, 'interval', CANDLE_INTERVALS, '15m');
    const r = await readContext(services, ctx);
    sendPage(ctx, await pairPage(r, id, interval), r.peer);
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
