import { definePlugin } from '../../../../../core/plugin.js';
import { bdsIndexers } from '../../../../../plugins/bds/index.js';

/**
 * A third-party-style plugin that contributes a BDS projection through the bds extension point:
 * one row per Transfer event, in a table created by its own migration, plus a query path that
 * reads it back through the registrar's `knex()`.
 */
export default definePlugin({
  name: 'bds-probe',
  description: 'test: a contributed BDS indexer',
  requires: ['bds'],
  init(ctx) {
    const bds = ctx.use(bdsIndexers);
    bds.addIndexer({
      name: 'transfer-counter',
      capability: 'read',
      tables: ['probe_transfers'],
      migrations: [{
        name: '0001_probe_transfers',
        async up(knex) {
          await knex.raw(`CREATE TABLE probe_transfers (event_id BIGINT PRIMARY KEY REFERENCES events(id) ON DELETE CASCADE, block_height BIGINT NOT NULL, amount TEXT NOT NULL)`);
        },
      }],
      async apply(block, trx) {
        for (const e of block.events) {
          if (e.event !== 'Transfer') continue;
          await trx.raw(`INSERT INTO probe_transfers VALUES (?, ?, ?) ON CONFLICT DO NOTHING`, [String(e.id), block.height, String(e.data.amount)]);
        }
      },
    });
    ctx.queryPaths.add({
      pattern: '/probe_transfers',
      description: 'test: transfers counted by the probe indexer',
      capability: 'read',
      async handler() {
        const r = await bds.knex().raw(`SELECT count(*) AS n FROM probe_transfers`);
        return { info: 'int', text: String(r.rows[0].n) };
      },
    });
  },
});
