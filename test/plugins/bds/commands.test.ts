import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ChainNode } from '../../../core/chain/node.js';
import { encodeTransaction, signTransaction } from '../../../core/chain/transaction.js';
import { BdsDatabase } from '../../../plugins/bds/database/bds-database.js';
import { maxIndexedHeight } from '../../../plugins/bds/reads/block-reads.js';
import { Devnet } from '../../../plugins/devnet/index.js';
import { forEachDatabase, type TestDatabase } from '../../support/databases.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function run(bin: string, args: string[], _cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'host/bin', bin), ...args], { cwd: ROOT, env: { ...process.env, CHAIN_LOG_LEVEL: 'error' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c));
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    child.on('exit', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** The command-line entry points against a devnet served over HTTP, the config naming the test database. */
describe('chain-bds-reindex and chain-bds-snapshot (command line)', function () {
  this.timeout(240_000);

  forEachDatabase((target) => {
    let devnet: Devnet;
    let devHome: string;
    let rpcUrl: string;
    let latest = 0;

    before(async function () {
      devHome = mkdtempSync(join(tmpdir(), 'chain-bds-cli-devnet-'));
      devnet = await Devnet.open({ home: devHome, accounts: 2 });
      rpcUrl = (await devnet.listen({ port: 0, metricsPort: null })).rpcUrl;
      const node = new ChainNode(devnet.rpc);
      const [alice, bob] = devnet.accounts();
      for (let i = 0; i < 3; i++) {
        const signed = signTransaction({ chain_id: devnet.chainId, chi_supplied: 5000, contract: 'currency', function: 'transfer', kwargs: { amount: { __fixed__: '1' }, to: bob!.address }, nonce: i, sender: alice!.address }, alice!.privateKey);
        latest = Number((await node.broadcastTxCommit(encodeTransaction(signed).hex)).height);
      }
    });
    after(async () => {
      await devnet?.close();
      rmSync(devHome, { recursive: true, force: true });
    });

    function configFor(db: TestDatabase, nodeUrl = rpcUrl): string {
      const file = join(db.home, '.chainrc.json');
      writeFileSync(file, JSON.stringify({ home: db.home, node: { url: nodeUrl }, plugins: { bds: { databaseUrl: db.url, schema: db.schema, pgliteDir: db.pgliteDir } } }));
      return file;
    }

    async function indexedHeight(db: TestDatabase): Promise<number | null> {
      const handle = await BdsDatabase.open({ url: db.url, pgliteDir: db.pgliteDir, schema: db.schema });
      try {
        return await maxIndexedHeight(handle.knex);
      } finally {
        await handle.close();
      }
    }

    it('reindexes from --rpc-url with progress lines, then exports, resets and imports a snapshot', async function () {
      const db = target.fresh();
      const config = configFor(db, 'http://127.0.0.1:1'); // the configured node is down: --rpc-url is the source
      const first = await run('chain-bds-reindex.ts', ['--config', config, '--rpc-url', rpcUrl, '--end-height', '2'], db.home);
      assert.equal(first.code, 0, first.stderr);
      assert.match(first.stdout, /^BDS reindex complete: indexed_height=2 range=0-2 latest_height=\d+\n$/);
      assert.match(first.stderr, /BDS reindex: 3\/3 blocks \(100\.0%\) [\d.]+ blocks\/s, \d+ txs \([\d.]+ txs\/s\)/);
      const rest = await run('chain-bds-reindex.ts', ['--config', config, '--rpc-url', rpcUrl], db.home);
      assert.equal(rest.code, 0, rest.stderr);
      assert.match(rest.stdout, new RegExp(`BDS reindex complete: indexed_height=${latest} range=3-${latest} latest_height=${latest}`));

      const withNode = configFor(db);
      const file = join(db.home, 'out.jsonl.gz');
      const exported = await run('chain-bds-snapshot.ts', ['--config', withNode, 'export', '--output-path', file], db.home);
      assert.equal(exported.code, 0, exported.stderr);
      assert.match(exported.stdout, new RegExp(`BDS snapshot exported: output_path=${file} indexed_height=${latest}`));
      assert.match(exported.stderr, /BDS snapshot export: \d+\/\d+ tables \(100\.0%\) [\d.]+ tables\/s, \d+ rows/, 'progress names what it counts');
      assert.doesNotMatch(exported.stderr, /tx\/s/);
      const reset = await run('chain-bds-reindex.ts', ['--config', withNode, '--reset', '--end-height', '0'], db.home);
      assert.equal(reset.code, 0, reset.stderr);
      assert.equal(await indexedHeight(db), 0);
      const imported = await run('chain-bds-snapshot.ts', ['--config', withNode, 'import', '--input-path', file], db.home);
      assert.equal(imported.code, 0, imported.stderr);
      assert.match(imported.stdout, new RegExp(`BDS snapshot imported: snapshot_path=${file} indexed_height=${latest}`));
      assert.match(imported.stderr, /BDS snapshot import: (\d+)\/\1 rows \(100\.0%\) [\d.]+ rows\/s/);
      assert.doesNotMatch(imported.stderr, /tx\/s/);
      assert.equal(await indexedHeight(db), latest);
    });

    it('fails with one line and a non-zero exit', async function () {
      const db = target.fresh();
      const config = configFor(db);
      const badFlag = await run('chain-bds-reindex.ts', ['--config', config, '--start-height', 'abc'], db.home);
      assert.notEqual(badFlag.code, 0);
      assert.match(badFlag.stderr, /--start-height must be a non-negative integer, got "abc"/);
      const down = await run('chain-bds-reindex.ts', ['--config', config, '--rpc-url', 'http://127.0.0.1:1'], db.home);
      assert.equal(down.code, 1);
      const errors = down.stderr.trim().split('\n').filter((l) => l.includes('error:'));
      assert.equal(errors.length, 1, down.stderr);
      assert.match(errors[0]!, /^chain-bds-reindex: error: node at http:\/\/127\.0\.0\.1:1 is unavailable/);
      const missing = await run('chain-bds-snapshot.ts', ['--config', config, 'import', '--input-path', join(db.home, 'nope.gz')], db.home);
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /^chain-bds-snapshot: error: snapshot .*nope\.gz does not exist\n$/);
    });
  });
});
