import { strict as assert } from 'node:assert';
import type { Knex } from 'knex';
import { BdsDatabase } from '../../../plugins/bds/database/bds-database.js';
import { BdsSchemaError, prepareSchema, readSchemaVersion, resetSchema, tableExists } from '../../../plugins/bds/database/bds-schema.js';
import { CORE_TABLES } from '../../../plugins/bds/database/schema-v7.js';
import { forEachDatabase, type TestDatabase } from '../../support/databases.js';

async function open(db: TestDatabase): Promise<BdsDatabase> {
  return BdsDatabase.open({ url: db.url, pgliteDir: db.pgliteDir, schema: db.schema });
}

const indexed = (knex: Knex, table: string) =>
  knex.raw(`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = ? ORDER BY indexname`, [table]).then((r) => r.rows as Array<{ indexname: string; indexdef: string }>);

describe('BDS schema v7 (bds.md §2)', function () {
  this.timeout(60_000);

  forEachDatabase((target) => {
    let db: BdsDatabase | null = null;
    afterEach(async () => {
      await db?.close();
      db = null;
    });

    it('creates every table, key and index of schema 7 with a schema_version row', async function () {
      db = await open(target.fresh());
      await prepareSchema(db);
      for (const table of CORE_TABLES) assert.ok(await tableExists(db.knex, table), table);
      assert.equal(await readSchemaVersion(db.knex), '7');
      const tx = (await indexed(db.knex, 'transactions')).map((i) => i.indexname);
      for (const name of ['idx_transactions_sender_height_index', 'idx_transactions_contract_height_index', 'idx_transactions_block_hash', 'transactions_block_height_tx_index_key']) {
        assert.ok(tx.includes(name), name);
      }
      const events = await indexed(db.knex, 'events');
      assert.ok(events.some((i) => /USING gin \(data_indexed\)/.test(i.indexdef)));
      assert.ok(events.some((i) => /\(contract, event, id\)/.test(i.indexdef)));
      const tags = await indexed(db.knex, 'shielded_output_tags');
      assert.ok(tags.some((i) => /WHERE \(note_index IS NOT NULL\)/.test(i.indexdef)));
      const meta = (await db.knex.raw(`SELECT key, value FROM bds_meta`)).rows;
      assert.deepEqual(meta, [{ key: 'schema_version', value: '7' }]);
      await prepareSchema(db); // idempotent
    });

    it('projects numbers the way bds.md §2.13 says', async function () {
      db = await open(target.fresh());
      await prepareSchema(db);
      const cases: Array<[unknown, string | null]> = [
        [12, '12'], ['99.4', '99.4'], ['1E+3', '1000'], [{ __fixed__: '1.5' }, '1.5'], [{ __fixed__: '1E-7' }, '0.0000001'],
        [{ __big_int__: '9223372036854775807' }, '9223372036854775807'], ['abc', null], [true, null], [[1], null], [{ x: 1 }, null], ['1E+99999', null],
      ];
      for (const [value, expected] of cases) {
        const r = (await db.knex.raw(`SELECT bds_numeric(?::jsonb)::text AS n`, [JSON.stringify(value)])).rows[0] as { n: string | null };
        assert.equal(r.n, expected, JSON.stringify(value));
      }
    });

    it('refuses another schema version with advice, and tables without a version row', async function () {
      const fresh = target.fresh();
      db = await open(fresh);
      await prepareSchema(db);
      await db.knex.raw(`UPDATE bds_meta SET value = '6' WHERE key = 'schema_version'`);
      await assert.rejects(() => prepareSchema(db!), (err: unknown) => {
        assert.ok(err instanceof BdsSchemaError);
        assert.equal(err.code, 'schema_version_mismatch');
        assert.match(err.message, /BDS schema version 6 does not match runtime schema version 7; reset BDS storage and reindex .* or import a compatible BDS snapshot/);
        return true;
      });
      await db.knex.raw(`DELETE FROM bds_meta`);
      await assert.rejects(() => prepareSchema(db!), /BDS schema metadata is missing for existing tables .*reset BDS storage/);
    });

    it('applies contributed migrations after the core ones, and reset drops everything', async function () {
      db = await open(target.fresh());
      const owner = {
        name: 'candles',
        tables: ['candle_rows'],
        migrations: [{ name: '0001_rows', up: (k: Knex) => k.raw(`CREATE TABLE candle_rows (event_id BIGINT PRIMARY KEY REFERENCES events(id) ON DELETE CASCADE)`).then(() => undefined) }],
      };
      await prepareSchema(db, [owner]);
      assert.ok(await tableExists(db.knex, 'candle_rows'));
      await prepareSchema(db, [owner]);
      await prepareSchema(db, []); // a plugin removed later is not corruption
      await resetSchema(db, [owner]);
      for (const table of [...CORE_TABLES, 'candle_rows', 'bds_migrations']) assert.equal(await tableExists(db.knex, table), false, table);
      await prepareSchema(db, [owner]);
      assert.equal(await readSchemaVersion(db.knex), '7');
    });
  });
});
