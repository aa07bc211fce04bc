import { strict as assert } from 'node:assert';
import { forEachDatabase } from '../../support/databases.js';
import { postJson } from '../../support/test-host.js';

/**
 * GraphQL in the same host as the BDS worker (over the in-process devnet): it reads through
 * bds's own database handle (one PGlite instance in the process), sees blocks as BDS indexes
 * them, and `bdsStatus` carries the worker's view. The host is imported dynamically so host,
 * plugins and core share one ESM module graph, as in production.
 */
describe('GraphQL in a host with the bds plugin (shared database handle)', function () {
  this.timeout(120_000);

  forEachDatabase((target) => {
    it('serves what BDS indexes, live, with the worker status', async function () {
      const db = target.fresh();
      const { bootTestHost } = await import('../../support/test-host.js');
      const host = await bootTestHost({
        home: db.home,
        plugins: {
          devnet: { listen: false, printAccounts: false, blockTimeMs: 100 },
          bds: { ...(db.url ? { databaseUrl: db.url } : {}), schema: db.schema },
          graphql: { host: '127.0.0.1', port: 0 },
        },
      });
      try {
        const url = `${host.host.serverUrl('graphql')}/graphql`;
        const query = async (q: string) => {
          const r = await postJson(url, { query: q });
          assert.equal(r.status, 200, r.text);
          assert.equal(r.json.errors, undefined, r.text);
          return r.json.data;
        };
        let status: any;
        for (let i = 0; i < 300; i++) {
          status = (await query('{ bdsStatus { indexedHeight workerRunning consistency schemaVersion } }')).bdsStatus;
          if (status.indexedHeight !== null && Number(status.indexedHeight) >= 3) break;
          await new Promise((r) => setTimeout(r, 100));
        }
        assert.ok(Number(status.indexedHeight) >= 3, `indexed height reached 3: ${JSON.stringify(status)}`);
        assert.equal(status.workerRunning, true, 'the worker status comes from the BDS plugin in this host');
        assert.equal(status.schemaVersion, '7');
        const data = await query(`{ allBlocks(orderBy: HEIGHT_ASC, first: 2) { nodes { height blockHash transactionsByBlockHeight { nodes { hash sender contract } } } }
          transactionByHash(hash: "GENESIS") { blockHeight function success } }`);
        assert.equal(data.allBlocks.nodes[0].height, '0');
        assert.deepStrictEqual(data.allBlocks.nodes[0].transactionsByBlockHeight.nodes, [{ hash: 'GENESIS', sender: 'sys', contract: 'GENESIS_SUBMISSION' }]);
        assert.deepStrictEqual(data.transactionByHash, { blockHeight: '0', function: 'process_genesis_block', success: true });
      } finally {
        await host.stop();
      }
    });
  });
});
