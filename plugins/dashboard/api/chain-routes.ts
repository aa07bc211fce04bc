import type Router from '@koa/router';
import { sendJson } from '../http/json-response.js';
import { heightParam, intParam, optionalIntParam, txHashParam } from '../http/params.js';
import { block, blockchain, blockResults, tx, unconfirmedTxs } from '../reads/block-reads.js';
import { readContext, type DashboardServices } from './dashboard-services.js';

const MAX_HEIGHT = Number.MAX_SAFE_INTEGER;

/** Block and transaction routes (spec §4): blockchain, block, block_results, tx, unconfirmed_txs. */
export function addChainRoutes(router: Router, services: DashboardServices): void {
  router.get('/api/blockchain', async (ctx) => {
    const min = optionalIntParam(ctx.query, 'min_height', 1, MAX_HEIGHT);
    const max = optionalIntParam(ctx.query, 'max_height', 1, MAX_HEIGHT);
    sendJson(ctx, await blockchain(await readContext(services, ctx), min, max));
  });

  router.get('/api/block/:height', async (ctx) => {
    const height = heightParam(ctx.params.height!);
    sendJson(ctx, await block(await readContext(services, ctx), height));
  });

  router.get('/api/block_results/:height', async (ctx) => {
    const height = heightParam(ctx.params.height!);
    sendJson(ctx, await blockResults(await readContext(services, ctx), height));
  });

  router.get('/api/tx/:hash', async (ctx) => {
    const hash = txHashParam(ctx.params.hash!);
    sendJson(ctx, await tx(await readContext(services, ctx), hash));
  });

  // CometBFT caps `limit` at 100 and defaults to 30.
  router.get('/api/unconfirmed_txs', async (ctx) => {
    const limit = intParam(ctx.query, 'limit', 30, 1, 100);
    sendJson(ctx, await unconfirmedTxs(await readContext(services, ctx), limit));
  });
}
