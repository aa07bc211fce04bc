import { z } from 'zod';
import { definePlugin } from '../../../../core/plugin.js';
import { QueryPathError, type QueryAnswer } from '../../../../core/query/query-path.js';

/**
 * Test support: BDS-shaped query paths with fixed rows (bds.md §6.3), contributed to the host's
 * query-path registry like the bds plugin does — so the dashboard must answer the indexed
 * routes in-process even when the node knows nothing about BDS.
 */
export const FAKE_SENDER = 'a'.repeat(64);
export const FAKE_TX = 'F'.repeat(64);

const dict = (value: unknown): QueryAnswer => ({ info: 'dict', text: JSON.stringify(value) });
const list = (value: unknown[]): QueryAnswer => ({ info: 'list', text: JSON.stringify(value) });

const txRow = (i: number) => ({
  tx_hash: FAKE_TX, block_height: 10 - i, block_hash: 'B'.repeat(64), tx_index: 0, sender: FAKE_SENDER, nonce: i,
  contract: 'con_token_x', function: 'transfer', success: i !== 1, status_code: i === 1 ? 1 : 0, chi_used: 20, result: 'None',
});

export default definePlugin({
  name: 'fake-bds',
  description: 'test: BDS query paths with fixed rows',
  config: z.object({}),
  init(ctx) {
    const add = (pattern: string, handler: (q: { parts: string[]; params: Record<string, string> }) => QueryAnswer) =>
      ctx.queryPaths.add({ pattern, description: 'test', capability: 'read', handler });
    add('/recent_events/limit=<n>/offset=<n>', (q) => dict({
      available: true, limit: Number(q.params.limit), offset: Number(q.params.offset),
      items: [{ id: 7, block_height: 10, tx_hash: FAKE_TX, tx_index: 0, event_index: 0, contract: 'con_token_x', event: 'Transfer', signer: FAKE_SENDER, caller: FAKE_SENDER, data_indexed: '{"to":"bob_2"}', data: { amount: '5' }, created_at: '2026-01-01T00:00:12+00:00' }],
    }));
    add('/addresses/limit=<n>/offset=<n>', (q) => dict({
      available: true, limit: Number(q.params.limit), offset: Number(q.params.offset),
      items: Array.from({ length: Math.min(2, Number(q.params.limit)) }, (_, i) => ({ address: i ? 'b'.repeat(64) : FAKE_SENDER, tx_count: 3 - i, last_block_height: 10, last_tx_hash: FAKE_TX, last_contract: 'con_token_x', last_function: 'transfer' })),
    }));
    add('/txs_by_sender/<address>/limit=<n>/offset=<n>', (q) => list(q.parts[0] === FAKE_SENDER ? [0, 1].map(txRow).slice(0, Number(q.params.limit)) : []));
    add('/developer_rewards/<recipient_key>', (q) => dict({ recipient_key: q.parts[0], total_rewards: '1.5', reward_count: 2, tx_count: 2, contract_count: 1 }));
    add('/contract_summary/<name>', (q) => (q.parts[0] === 'con_token_x' ? dict({ name: 'con_token_x', tx_count: 2, total_rewards: '1.5', submitted_at_block: 3 }) : { info: '', text: null }));
    add('/bds_status', () => dict({ worker_running: true, current_block_height: 10, indexed: { indexed_height: 10 }, height_lag: 0, queue_depth: 0, spool_pending_count: 0, alerts: [] }));
    add('/bds_spool/limit=<n>/offset=<n>', () => {
      throw new QueryPathError('the spool directory is not readable');
    });
  },
});
