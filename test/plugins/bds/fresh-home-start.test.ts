import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { STILL_INITIALISING } from '../../../plugins/bds/bds-service.js';
import { stderrUntil } from '../../support/child-output.js';
import { freePort } from '../../support/free-port.js';
import { REPO_ROOT, request } from '../../support/test-host.js';

/**
 * A first start on a fresh home (no PGlite data directory yet: initdb runs): the host serves as
 * soon as its servers bind, says on stderr that BDS is still creating its index database, the
 * indexed reads say so too while it does, and BDS indexes once it is ready. PGlite runs in its
 * own thread, so from the first answer until the index is ready the event loop never runs longer
 * than MAX_BURST_MS of CPU without turning (test/support/host-work-probe.ts: the main thread's
 * CPU, so a busy machine neither hides a block nor fakes one). With PGlite on the event loop,
 * initdb held it for seconds and `/status` did not answer meanwhile.
 */
const MAX_BURST_MS = 50;
describe('bds: a first start on a fresh home', function () {
  this.timeout(300_000);
  let dir: string;
  let child: ChildProcessWithoutNullStreams | undefined;

  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'chain-fresh-home-'));
  });
  after(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child!.once('exit', resolve));
    }
    await rm(dir, { recursive: true, force: true });
  });

  it('serves before the index database is ready, says what it is preparing, then indexes', async () => {
    const [rpc, tools] = [await freePort(), await freePort()];
    const config = { plugins: { devnet: { port: rpc, metricsPort: null }, bds: {}, query: {} }, tools: { http: { port: tools } } };
    await writeFile(path.join(dir, 'chainrc.json'), JSON.stringify(config));
    const tsx = path.join(REPO_ROOT, 'node_modules/tsx/dist/esm/index.mjs');
    const probe = path.join(REPO_ROOT, 'test/support/host-work-probe.ts');
    child = spawn(process.execPath, ['--import', tsx, '--import', probe, path.join(REPO_ROOT, 'host/bin/chain-host.ts'), '--config', 'chainrc.json'], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_OPTIONS: process.env.NODE_OPTIONS ?? '', CHAIN_HOME: path.join(dir, 'home') },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdout.resume();
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    const banner = await stderrUntil(child, /^chain-host: serving$/m, 240_000);
    const preparing = banner.search(/^BDS: initialising the index database \(PGlite at .*home\/bds/m);
    assert.ok(preparing >= 0, `says BDS is preparing:\n${banner}`);
    assert.ok(preparing < banner.search(/^chain-host: serving$/m), 'before the host says it serves');
    const probeUrl = /^host-work-probe: (\S+)$/m.exec(stderr)?.[1];
    assert.ok(probeUrl, `the work probe's URL:\n${stderr}`);
    // The node and the tool server answer now, whatever BDS is doing.
    assert.equal((await request(`http://127.0.0.1:${rpc}/status`)).status, 200);
    await request(`${probeUrl}?reset=1`); // the loop's longest burst from the node's first answer on
    assert.equal((await request(`http://127.0.0.1:${tools}/health`)).status, 200);
    const early = await request(`http://127.0.0.1:${rpc}/abci_query?path=%22/bds_status%22`);
    // Until it is ready (on a fast machine it may already be), the indexed reads say why they cannot answer, at once.
    if (early.json.result.response.code !== 0) assert.equal(early.json.result.response.log, STILL_INITIALISING, early.text);
    // Each turn reads (and resets) the probe: the turns that end before BDS says its database is
    // ready measure the loop while PGlite ran initdb and the migrations. The turn in which it
    // becomes ready is left out: it also holds the follower's first catch-up batch (the indexers'
    // JavaScript, not PGlite's work).
    const ready = /^BDS: index database ready after [\d.]+ s; indexing from the node$/m;
    let longest = 0;
    let measuredCpuMs = 0;
    const deadline = Date.now() + 240_000;
    for (;;) {
      const status = await request(`http://127.0.0.1:${rpc}/abci_query?path=%22/bds_status%22`);
      const response = status.json.result.response;
      if (response.code === 0 && JSON.parse(Buffer.from(response.value, 'base64').toString()).indexed.indexed_height >= 1) break;
      assert.ok(Date.now() < deadline, `BDS indexes the devnet's blocks once ready: ${status.text}`);
      assert.equal((await request(`http://127.0.0.1:${rpc}/status`)).status, 200);
      await new Promise((r) => setTimeout(r, 250));
      const work = (await request(`${probeUrl}?reset=1`)).json as { maxBurstMs: number; cpuMs: number };
      await new Promise((r) => setTimeout(r, 20)); // a line written before the probe answered has arrived by now
      if (ready.test(stderr)) continue;
      longest = Math.max(longest, work.maxBurstMs);
      measuredCpuMs += work.cpuMs;
    }
    // PGlite did its work meanwhile (initdb alone is seconds of CPU), in its own thread.
    assert.ok(measuredCpuMs > 200, `the host worked ${measuredCpuMs.toFixed(0)} ms of CPU before the index database was ready`);
    assert.ok(longest < MAX_BURST_MS, `the event loop ran ${longest.toFixed(1)} ms without turning while the index database was created (${measuredCpuMs.toFixed(0)} ms of CPU in all threads)`);
    assert.match(stderr, ready);
  });
});
