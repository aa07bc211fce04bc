import type Router from '@koa/router';
import { ApiError } from 'chainhost/plugin';
import { sendJson } from '../http/json-response.js';
import { passThrough, passThroughPath } from '../reads/abci-pass-through.js';
import { AbciSource, routeOf } from '../reads/abci-source.js';
import { readContext, type DashboardServices } from './dashboard-services.js';

const PREFIX = '/api/abci_query/';

/**
 * `/api/abci_query/{path}` (spec §4): the ABCI pass-through with decoded key and value. Only
 * `?rpc=` is read from the query string — `height`, `prove` and `data` are never forwarded, so
 * it always reads the latest committed state. `simulate_tx` passes through its own guard.
 */
export function addAbciQueryRoute(router: Router, services: DashboardServices): void {
  router.get('/api/abci_query/*path', async (ctx) => {
    // The raw path, not the router's decoded param: passThroughPath decodes exactly once.
    // A dry run's payload is in the path: its own cap (checked below, 413) applies; the server's
    // header cap (the payload cap + 16 KiB) bounds the text decoded here.
    const raw = ctx.path.slice(PREFIX.length);
    const path = passThroughPath(raw, raw.startsWith('simulate_tx/') ? services.options.simulate.maxPayloadHexChars + 16 * 1024 : undefined);
    const r = await readContext(services, ctx);
    if (routeOf(path) !== 'simulate_tx') {
      sendJson(ctx, await passThrough(r, path));
      return;
    }
    const guard = services.simulate;
    if (!guard) {
      services.countSimulateRefusal('disabled');
      throw new ApiError(403, 'forbidden', 'dry runs through the dashboard are disabled (plugins.dashboard.simulate.enabled is false); call the node or the simulate tool instead');
    }
    checkSimulatePayload(path, services.options.simulate.maxPayloadHexChars, services.countSimulateRefusal);
    await guard.checkWindow(ctx);
    const timeoutMs = services.options.simulate.timeoutMs;
    const result = await guard.run((signal) => {
      const call = { signal, timeoutMs };
      return passThrough({ ...r, call, abci: new AbciSource(r.node, null, call) }, path);
    });
    sendJson(ctx, result);
  });
}

/** `/simulate_tx/<hex>`: exactly one part, the hex of the dry-run request JSON (spec part 2). */
function checkSimulatePayload(path: string, maxChars: number, countRefusal: DashboardServices['countSimulateRefusal']): void {
  const parts = path.split('/').filter(Boolean);
  const hex = parts[1] ?? '';
  if (parts.length !== 2 || hex.length === 0 || hex.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(hex)) {
    countRefusal('invalid_payload');
    throw ApiError.badRequest('hex_payload must be the hex of the dry-run request JSON ({"sender","contract","function","kwargs"}): an even number of 0-9a-f characters, as the only part after simulate_tx', { parameter: 'hex_payload' });
  }
  if (hex.length > maxChars) {
    countRefusal('payload_too_large');
    throw new ApiError(413, 'payload_too_large', `hex_payload is ${hex.length} hex characters; at most ${maxChars} are accepted`, { parameter: 'hex_payload', max: maxChars });
  }
}
