import { z } from 'zod';
import { definePlugin } from '../../../core/plugin.js';

/**
 * Stands in for the BDS plugin in the query tests: contributes `/token_balances/…` and
 * `/token_contracts/…` query paths with fixed rows, so the indexed branch of
 * get_token_balances and get_token_contract_by_symbol can be checked without PostgreSQL.
 */
export const INDEXED_ROWS = [
  { contract: 'con_indexed', balance: '12.5', last_tx_hash: 'AB'.repeat(32), last_block_height: 7, updated_at: '2026-01-01T00:00:07+00:00', name: 'Indexed', symbol: 'IDX', logo_url: null },
  { contract: 'currency', balance: '1E+3', last_tx_hash: null, last_block_height: 1, updated_at: '2026-01-01T00:00:01+00:00', name: 'Chain', symbol: 'CHAIN', logo_url: null },
];

export default definePlugin({
  name: 'fake-bds',
  description: 'Test stand-in for BDS token query paths.',
  config: z.strictObject({}),
  init(ctx) {
    ctx.queryPaths.add({
      pattern: '/token_balances/<address>/limit=<n>/offset=<n>',
      description: 'fixed token balances',
      capability: 'read',
      handler: (q) => {
        const limit = Number(q.params['limit'] ?? 100);
        const offset = Number(q.params['offset'] ?? 0);
        const items = INDEXED_ROWS.slice(offset, offset + limit);
        return { info: 'dict', text: JSON.stringify({ available: true, address: q.parts[0], items, total: INDEXED_ROWS.length, limit, offset }) };
      },
    });
    ctx.queryPaths.add({
      pattern: '/token_contracts/limit=<n>/offset=<n>',
      description: 'fixed token list',
      capability: 'read',
      handler: () => ({
        info: 'dict',
        text: JSON.stringify({ available: true, items: [{ contract: 'con_indexed', symbol: 'IDX' }, { contract: 'con_other', symbol: 'idx' }], total: 2, limit: 1000, offset: 0 }),
      }),
    });
  },
});
