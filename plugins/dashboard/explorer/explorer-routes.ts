import Router from '@koa/router';
import type Koa from 'koa';
import { ApiError } from 'chainhost/plugin';
import { addressParam, choiceParam, contractNameParam, heightParam, idParam, intParam, optionalIntParam, stringParam, txHashParam } from '../http/params.js';
import { readContext, type DashboardServices } from '../api/dashboard-services.js';
import type { ReadContext } from '../reads/node-targets.js';
import { CONTRACT_SORTS, SORT_ORDERS } from '../reads/contract-reads.js';
import { sendPage } from './explorer-response.js';
import type { PageView } from './layout.js';
import { blockPage } from './pages/block-page.js';
import { genesisPage } from './pages/genesis-page.js';
import { contractPage, contractsPage, hashEntriesPage } from './pages/contract-pages.js';
import { homePage } from './pages/home-page.js';
import { addressesPage, eventsPage } from './pages/index-pages.js';
import { addressPage } from './pages/address-page.js';
import { dexPage, pairPage } from './pages/dex-pages.js';
import { tokenPage, tokensPage } from './pages/token-pages.js';
import { CANDLE_INTERVALS } from '../reads/dex-reads.js';
import { addExplorerScriptRoute } from './live-route.js';
import { homeLiveUpdate } from './pages/home-live.js';
import { statePage } from './pages/state-page.js';
import { txPage } from './pages/tx-page.js';
import { search } from './search.js';
import { irOfContract, irOfTx, sendIrFile } from './ir-download.js';
import { GENESIS_TX, href } from './format.js';

const MAX_OFFSET = 1_000_000_000;

/**
 * The explorer: server-rendered pages that work without JavaScript (spec §4 explorer pages plus
 * detail pages for a block, tx, contract, address and state key). Every page reads through the
 * same functions as the REST routes, so both answer the same data and errors.
 */
export function explorerRouter(services: DashboardServices): Router {
  const router = new Router();
  /** One page: its arguments checked first (a bad one is a 400 before any read), then read and rendered for the node the request names. */
  const page = <A>(path: string, args: (ctx: Koa.Context) => A, render: (r: ReadContext, args: A) => Promise<PageView>) => {
    router.get(path, async (ctx) => {
      const a = args(ctx);
      const r = await readContext(services, ctx);
      sendPage(ctx, await render(r, a), r.peer);
    });
  };

  router.get('/', (ctx) => ctx.redirect('/explorer'));
  addExplorerScriptRoute(router);
  router.get('/explorer/live', async (ctx) => {
    const after = intParam(ctx.query, 'after', 0, 0, Number.MAX_SAFE_INTEGER);
    const r = await readContext(services, ctx);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await homeLiveUpdate(r, after);
  });

  page('/explorer', (ctx) => optionalIntParam(ctx.query, 'max_height', 1, Number.MAX_SAFE_INTEGER), (r, maxHeight) => homePage(r, services.targets, maxHeight));
  // Block 0 is the genesis state (indexes record genesis writes at height 0): its own page, not a 400.
  page('/explorer/block/:height', (ctx) => (ctx.params.height === '0' ? 0 : heightParam(ctx.params.height!)), (r, height) => (height === 0 ? genesisPage(r) : blockPage(r, height)));
  // Indexes name the genesis writes `GENESIS`; that is block 0, not a transaction.
  router.get(`/explorer/tx/${GENESIS_TX}`, async (ctx) => ctx.redirect(href('/explorer/block/0', (await readContext(services, ctx)).peer)));
  page('/explorer/tx/:hash', (ctx) => txHashParam(ctx.params.hash!), txPage);
  router.get('/explorer/tx/:hash/ir/:contract', async (ctx) => {
    const hash = txHashParam(ctx.params.hash!);
    const contract = contractNameParam(ctx.params.contract!, 'contract');
    const r = await readContext(services, ctx);
    sendIrFile(ctx, contract, await irOfTx(r, hash, contract), `-${hash.slice(0, 12).toLowerCase()}`);
  });
  router.get('/explorer/contract/:name/ir', async (ctx) => {
    const name = contractNameParam(ctx.params.name!);
    const r = await readContext(services, ctx);
    sendIrFile(ctx, name, await irOfContract(r, name));
  });
  page('/explorer/contracts', (ctx) => ({
    offset: offsetParam(ctx),
    sort: choiceParam(ctx.query, 'sort', CONTRACT_SORTS, 'submitted_at'),
    order: choiceParam(ctx.query, 'order', SORT_ORDERS, 'desc'),
  }), contractsPage);
  page('/explorer/contract/:name', (ctx) => contractNameParam(ctx.params.name!), contractPage);
  page('/explorer/contract/:name/hash/:hash', (ctx) => ({
    name: contractNameParam(ctx.params.name!),
    hash: stateNameParam(ctx.params.hash!, 'hash'),
    after: stateKeyCursorParam(ctx),
  }), hashEntriesPage);
  page('/explorer/addresses', offsetParam, addressesPage);
  page('/explorer/address/:address', (ctx) => ({
    addr: addressParam(ctx.params.address!),
    offset: offsetParam(ctx),
    before: optionalIntParam(ctx.query, 'before', 1, Number.MAX_SAFE_INTEGER),
  }), (r, { addr, offset, before }) => addressPage(r, addr, { offset, before }));
  page('/explorer/tokens', offsetParam, tokensPage);
  page('/explorer/token/:contract', (ctx) => ({
    contract: contractNameParam(ctx.params.contract!, 'contract'),
    before: optionalIntParam(ctx.query, 'before', 1, Number.MAX_SAFE_INTEGER),
  }), (r, { contract, before }) => tokenPage(r, contract, before));
  page('/explorer/dex', offsetParam, dexPage);
  page('/explorer/dex/pair/:id', (ctx) => ({
    id: idParam(ctx.params.id!, 'id', 'pair id'),
    interval: choiceParam(ctx.query, 'interval', CANDLE_INTERVALS, '15m'),
  }), (r, { id, interval }) => pairPage(r, id, interval));
  page('/explorer/events', offsetParam, eventsPage);
  page('/explorer/state', (ctx) => stringParam(ctx.query, 'key') ?? '', statePage);

  router.get('/explorer/search', async (ctx) => {
    const r = await readContext(services, ctx);
    const outcome = await search(r, stringParam(ctx.query, 'q') ?? '');
    if ('redirect' in outcome) ctx.redirect(outcome.redirect);
    else sendPage(ctx, outcome.page, r.peer, outcome.status);
  });

  return router;
}

/** `offset` of a listing page: 0 to MAX_OFFSET, default 0. */
function offsetParam(ctx: Koa.Context): number {
  return intParam(ctx.query, 'offset', 0, 0, MAX_OFFSET);
}

/** A Variable or Hash name: a Python identifier. */
function stateNameParam(raw: string, name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(raw)) {
    throw ApiError.badRequest(`${name} must be a state name (a Python identifier such as balances), got ${JSON.stringify(raw.slice(0, 100))}`, { parameter: name });
  }
  return raw;
}

/** `after`: the key a Hash page starts after (a `/keys` cursor); no `/`, at most 1024 characters. */
function stateKeyCursorParam(ctx: Koa.Context): string | undefined {
  const after = stringParam(ctx.query, 'after');
  if (after === undefined || after === '') return undefined;
  if (after.length > 1024 || after.includes('/') || /[\u0000-\u001f]/.test(after)) {
    throw ApiError.badRequest('after must be a key of the hash (at most 1024 characters, no "/" or control characters)', { parameter: 'after' });
  }
  return after;
}
