import type { QueryPathDefinition } from 'chainhost/plugin';
import { contractEvents, eventsAfter, eventsForTx, eventsPage, recentEvents } from '../reads/event-reads.js';
import { transfersOf } from '../reads/transfer-reads.js';
import { bdsPath, type BdsQueryContext } from './path-context.js';
import { afterIdParam, beforeIdParam, eventNamesParam, limitParam, matchParam, offsetParam, partParam } from './query-params.js';

/** Events (spec part 4 "events"; part 6): `after_id` for restart-safe consumption, offset for browsing. */
export function eventPaths(ctx: BdsQueryContext): QueryPathDefinition[] {
  return [
    bdsPath('/events_for_tx/<tx_hash>', 'events of one transaction in emission order', (q) => eventsForTx(ctx.knex(), partParam(q, 0, 'tx_hash'))),
    bdsPath(
      '/events/<contract>/<event>/limit=<n>/offset=<n>',
      'events of one contract and name: newest first by offset, or oldest first after an id with after_id=<cursor>',
      (q) => {
        const contract = partParam(q, 0, 'contract');
        const event = partParam(q, 1, 'event');
        const limit = limitParam(q);
        const after = afterIdParam(q);
        return after === undefined ? eventsPage(ctx.knex(), contract, event, limit, offsetParam(q)) : eventsAfter(ctx.knex(), contract, event, after, limit);
      },
    ),
    bdsPath('/recent_events/limit=<n>/offset=<n>', 'all events, newest first', async (q) => {
      const limit = limitParam(q);
      const offset = offsetParam(q);
      return { available: true, items: await recentEvents(ctx.knex(), limit, offset), limit, offset };
    }),
    bdsPath(
      '/contract_events/<contract>/limit=<n>/before_id=<cursor>/events=<Name,…>/match=<field>:<value>',
      'events of one contract (optionally only some names, or whose indexed field equals a value), newest first by id; before_id=<last id seen> continues',
      async (q) => {
        const contract = partParam(q, 0, 'contract');
        const limit = limitParam(q);
        const items = await contractEvents(ctx.knex(), contract, { events: eventNamesParam(q), match: matchParam(q) }, limit, beforeIdParam(q));
        return { available: true, contract, items, limit, next_before_id: nextBefore(items, limit) };
      },
    ),
    bdsPath(
      '/transfers/<address>/limit=<n>/before_id=<cursor>',
      'Transfer events into and out of an address from every token contract, newest first by id, with the exact amount, direction and token symbol; before_id=<last id seen> continues',
      async (q) => {
        const address = partParam(q, 0, 'address');
        const limit = limitParam(q);
        const items = await transfersOf(ctx.knex(), address, limit, beforeIdParam(q));
        return { available: true, address, items, limit, next_before_id: nextBefore(items, limit) };
      },
    ),
  ];
}

/** The cursor of the next (older) page: the last id of a full page, null when this page was the last. */
function nextBefore(items: Array<Record<string, unknown>>, limit: number): number | null {
  return limit > 0 && items.length >= limit ? Number(items[items.length - 1]!.id) : null;
}
