import type { QueryPathDefinition } from 'chainhost/plugin';
import type { BdsStatusReporter } from '../status/bds-status.js';
import type { Spool } from '../follower/spool.js';
import { bdsPath } from './path-context.js';
import { limitParam, offsetParam } from './query-params.js';

/** `/bds_status` and `/bds_spool` (spec part 2 and the dashboard pass-through table). */
export function statusPaths(reporter: BdsStatusReporter, spool: Spool): QueryPathDefinition[] {
  return [
    bdsPath('/bds_status', 'BDS worker, queue, spool, database and index heights with alerts', () => reporter.status()),
    bdsPath('/bds_spool/limit=<n>/offset=<n>', 'recovery spool files waiting to drain, in height order', async (q) => {
      const limit = limitParam(q);
      const offset = offsetParam(q);
      return spool.list().slice(offset, offset + limit).map((e) => spool.describe(e));
    }),
  ];
}
