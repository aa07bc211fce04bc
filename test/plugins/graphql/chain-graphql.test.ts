import { strict as assert } from 'node:assert';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { forEachDatabase } from '../../support/databases.js';
import { REPO_ROOT, request, writeTempConfig } from '../../support/test-host.js';
import { prepareDatabase, type PreparedDatabase } from './support/graphql-host.js';
import { stderrUntil } from '../../support/child-output.js';

/**
 * `chain-graphql [--host] [--port] [--public-query]`: the GraphQL sidecar on its own, reading
 * the BDS database from CHAIN_BDS_DATABASE_URL (or the PGlite directory under CHAIN_HOME).
 */
const BIN = path.join(REPO_ROOT, 'host/bin/chain-graphql.ts');

function launch(args: string[], env: Record<string, string>): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['--import', 'tsx', BIN, ...args], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_OPTIONS: process.env.NODE_OPTIONS ?? '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

const exit = (child: ChildProcessWithoutNullStreams) => new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

describe('chain-graphql', function () {
  this.timeout(90_000);

  forEachDatabase((target) => {
    let db: PreparedDatabase;
    let config: { file: string; remove(): Promise<void> };
    before(async function () {
      db = await prepareDatabase(target.kind);
      config = await writeTempConfig({ home: db.home, plugins: { graphql: { schema: db.schema } } });
    });
    after(async function () {
      await config?.remove();
      await db?.remove();
    });
    const env = (): Record<string, string> => (db.url ? { CHAIN_BDS_DATABASE_URL: db.url } : {});

    it('serves POST /graphql on the given port and stops cleanly on SIGTERM', async function () {
      const child = launch(['--config', config.file, '--port', '0'], env());
      try {
        const banner = await stderrUntil(child, /graphql: http:\/\/127\.0\.0\.1:\d+/);
        assert.match(banner, /plugins: graphql/);
        const base = /graphql: (http:\/\/127\.0\.0\.1:\d+)/.exec(banner)![1]!;
        const r = await request(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ bdsStatus { indexedHeight } allTransactions(first: 1, orderBy: BLOCK_HEIGHT_DESC) { nodes { blockHeight } } }' }) });
        assert.equal(r.status, 200, r.text);
        assert.deepStrictEqual(r.json.data, { bdsStatus: { indexedHeight: '6' }, allTransactions: { nodes: [{ blockHeight: '6' }] } });
      } finally {
        child.kill('SIGTERM');
      }
      assert.equal(await exit(child), 0);
    });

    it('refuses a public bind without the opt-in, in one line', async function () {
      const child = launch(['--config', config.file, '--host', '0.0.0.0', '--port', '0', '--public-query'], env());
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c));
      assert.equal(await exit(child), 1);
      assert.match(stderr.trim(), /^chain-graphql: error: graphql binds 0\.0\.0\.0, which is not loopback; public query publishing needs both its publicQuery option and CHAIN_PUBLIC_QUERY_ENABLED=1: set CHAIN_PUBLIC_QUERY_ENABLED=1 in the environment$/m);
    });
  });

  it('names a bad --port', async function () {
    const child = launch(['--port', 'eighty'], {});
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    assert.notEqual(await exit(child), 0);
    assert.match(stderr.trim(), /^chain-graphql: error: plugins\.graphql\.port="eighty": must be a port number$/);
  });

  it('says where the BDS database should be when there is none', async function () {
    const tmp = await writeTempConfig({ home: path.join(os.tmpdir(), `chain-graphql-missing-home-${process.pid}`) });
    try {
      const child = launch(['--config', tmp.file, '--port', '0'], {});
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c));
      assert.equal(await exit(child), 1);
      assert.match(stderr, /chain-graphql: error: .*no BDS database at .*chain-graphql-missing-home-\d+\/bds.*CHAIN_BDS_DATABASE_URL/);
    } finally {
      await tmp.remove();
    }
  });
});
