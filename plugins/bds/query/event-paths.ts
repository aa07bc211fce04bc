import type { QueryPathDefinition } from '../../../core/query/query-path.js';
import { eventsAfter, eventsForTx, eventsPage, recentEvents } from '../reads/event-reads.js';
import { bdsPath, type BdsQueryContext } from './path-context.js';
import { afterIdParam, limitParam, offsetParam, partParam } from './query-params.js';

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
  ];
}
