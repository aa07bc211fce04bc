import { strict as assert } from 'node:assert';
import { BDS_TABLES } from '../../../plugins/graphql/catalog/bds-tables.js';
import { planConnection } from '../../../plugins/graphql/sql/connection-plan.js';
import { pageSql } from '../../../plugins/graphql/sql/connection-sql.js';
import { forEachFixture, type GraphqlFixture } from './support/graphql-fixture.js';

/**
 * Issue 31 item 2: the cursor condition of a keyset page. On a multi-column order it was
 * `a < x OR (a = x AND b < y)`, which PostgreSQL cannot use as an index condition (a page at
 * depth n read and dropped n rows); now a run of same-direction NOT NULL columns is the row
 * comparison `(a, b) < (x, y)` (as PostGraphile 5 writes it), and a mixed order leads with the
 * first run's range. Pages must still be exactly the rows the order gives.
 */
/** Total orders only (an order PostGraphile takes as unique gets no tie-break, and its ties have no fixed order). */
const ORDERS: Array<{ connection: string; orderBy: string; fields: string }> = [
  { connection: 'allTransactions', orderBy: '[BLOCK_HEIGHT_DESC, TX_INDEX_DESC]', fields: 'hash' },
  { connection: 'allTransactions', orderBy: '[BLOCK_HEIGHT_DESC, TX_INDEX_ASC]', fields: 'hash' },
  { connection: 'allTransactions', orderBy: '[SENDER_ASC, CHI_USED_DESC]', fields: 'hash' },
  { connection: 'allTransactions', orderBy: '[CONTRACT_ASC, FUNCTION_ASC, NONCE_ASC]', fields: 'hash' },
  { connection: 'allTransactions', orderBy: '[SUCCESS_DESC, RESULT_ASC]', fields: 'hash' },
  { connection: 'allRewards', orderBy: '[SOURCE_CONTRACT_DESC, VALUE_ASC]', fields: 'id' },
  { connection: 'allRewards', orderBy: '[TX_HASH_ASC, REWARD_INDEX_ASC, ID_ASC]', fields: 'id' },
  { connection: 'allEvents', orderBy: '[CREATED_AT_DESC]', fields: 'id' },
];

describe('GraphQL: keyset pages (row-value cursor conditions)', function () {
  forEachFixture((fixture, kind) => {
    let f: GraphqlFixture;
    beforeEach(function () {
      f = fixture();
    });

    it('walking forward and backward by cursors gives exactly the rows of the whole order', async function () {
      for (const { connection, orderBy, fields } of ORDERS) {
        const whole = (await f.data(`{ ${connection}(orderBy: ${orderBy}) { nodes { ${fields} } } }`))[connection].nodes;
        const forward: unknown[] = [];
        let after: string | null = null;
        for (let page = 0; page < 50; page++) {
          const c: any = (await f.data(`query ($after: Cursor) { ${connection}(first: 2, after: $after, orderBy: ${orderBy}) { nodes { ${fields} } pageInfo { hasNextPage endCursor } } }`, { after }))[connection];
          forward.push(...c.nodes);
          if (!c.pageInfo.hasNextPage) break;
          after = c.pageInfo.endCursor;
        }
        assert.deepEqual(forward, whole, `${connection}(orderBy: ${orderBy}) forward`);
        const backward: unknown[] = [];
        let before: string | null = null;
        for (let page = 0; page < 50; page++) {
          const c: any = (await f.data(`query ($before: Cursor) { ${connection}(last: 3, before: $before, orderBy: ${orderBy}) { nodes { ${fields} } pageInfo { hasPreviousPage startCursor } } }`, { before }))[connection];
          backward.unshift(...c.nodes);
          if (!c.pageInfo.hasPreviousPage) break;
          before = c.pageInfo.startCursor;
        }
        assert.deepEqual(backward, whole, `${connection}(orderBy: ${orderBy}) backward`);
      }
    });

    if (kind !== 'postgres') return;

    /** The plan of a page after the cursor of the 10th row, with sequential scans priced out (the fixture is tiny). */
    async function planOf(orderBy: string[]): Promise<any> {
      const gqlOrder = `[${orderBy.join(', ')}]`;
      const cursor = (await f.data(`{ allTransactions(first: 10, orderBy: ${gqlOrder}) { pageInfo { endCursor } } }`)).allTransactions.pageInfo.endCursor;
      const table = BDS_TABLES.find((t) => t.name === 'transactions')!;
      const plan = planConnection(table, { first: 5, after: cursor, orderBy }, { max: null, default: null });
      const sql = pageSql(f.db.schema, plan, null, new Set(['hash']));
      return f.db.knex.transaction(async (trx) => {
        await trx.raw('SET LOCAL enable_seqscan = off');
        await trx.raw('SET LOCAL enable_bitmapscan = off');
        const r = await trx.raw(`EXPLAIN (FORMAT JSON) ${sql.text}`, sql.values as never[]);
        return r.rows[0]['QUERY PLAN'][0].Plan;
      });
    }

    function scanOf(node: any): any {
      if (/Index (Only )?Scan/.test(node['Node Type'])) return node;
      for (const child of node.Plans ?? []) {
        const found = scanOf(child);
        if (found) return found;
      }
      return null;
    }

    it('a same-direction two-column order: the cursor is one row comparison in the index condition (EXPLAIN)', async function () {
      const scan = scanOf(await planOf(['BLOCK_HEIGHT_DESC', 'TX_INDEX_DESC']));
      assert.ok(scan, 'an index scan');
      assert.match(scan['Index Cond'] ?? '', /ROW\(block_height, tx_index\) < ROW\(/, JSON.stringify(scan));
      assert.equal(scan.Filter, undefined, `no rows read and dropped: ${JSON.stringify(scan)}`);
    });

    it('a mixed-direction order: the leading column\'s range is the index condition (EXPLAIN)', async function () {
      const scan = scanOf(await planOf(['BLOCK_HEIGHT_DESC', 'TX_INDEX_ASC']));
      assert.ok(scan, 'an index scan');
      assert.match(scan['Index Cond'] ?? '', /block_height <= /, JSON.stringify(scan));
    });
  });
});
