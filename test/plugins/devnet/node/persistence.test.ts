import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BlockLog, BlockLogCorruptError } from '../../../../plugins/devnet/node/block-log.js';
import { Devnet, type DevAccount } from '../../../../plugins/devnet/node/devnet.js';
import { abciQuery, signedTx, tempHome, txParam, valueText } from './devnet-fixture.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));

describe('devnet persistence (<home>/data)', function () {
  this.timeout(60_000);

  describe('the block log', () => {
    it('cuts a torn last record and keeps everything before it', () => {
      const home = tempHome();
      try {
        const file = path.join(home.dir, 'blocks.log');
        const log = BlockLog.open(file, { fsync: true }, () => {});
        log.append({ height: 1 });
        log.append({ height: 2 });
        log.close();
        appendFileSync(file, '{"height":3,"half');
        const seen: unknown[] = [];
        const reopened = BlockLog.open(file, { fsync: true }, (r) => seen.push(r));
        assert.deepEqual(seen, [{ height: 1 }, { height: 2 }]);
        reopened.append({ height: 3 });
        reopened.close();
        const again: unknown[] = [];
        BlockLog.open(file, { fsync: true }, (r) => again.push(r)).close();
        assert.deepEqual(again, [{ height: 1 }, { height: 2 }, { height: 3 }]);
      } finally {
        home.remove();
      }
    });

    it('refuses damage in the middle of the log', () => {
      const home = tempHome();
      try {
        const file = path.join(home.dir, 'blocks.log');
        const log = BlockLog.open(file, { fsync: false }, () => {});
        log.append({ height: 1 });
        log.append({ height: 2 });
        log.close();
        writeFileSync(file, readFileSync(file, 'utf8').replace('"height":1', '"height":7'));
        assert.throws(() => BlockLog.open(file, { fsync: false }, () => {}), BlockLogCorruptError);
      } finally {
        home.remove();
      }
    });
  });

  it('a restart keeps every block, transaction and balance; reset wipes them', async () => {
    const home = tempHome();
    try {
      let devnet = await Devnet.open({ home: home.dir, accounts: 2, config: { snapshot_interval_blocks: 2 } });
      const [a, b] = devnet.accounts() as [DevAccount, DevAccount];
      const hashes: string[] = [];
      for (let nonce = 0; nonce < 5; nonce++) {
        const tx = signedTx({ privateKey: a.privateKey, sender: a.address, nonce, kwargs: { amount: 3, to: b.address } });
        await devnet.rpc.call('broadcast_tx_commit', { tx: txParam(tx.hex) });
        hashes.push(tx.hash);
      }
      const status = await devnet.rpc.call<any>('status');
      const balance = valueText(await abciQuery(devnet, `/get/currency.balances:${a.address}`));
      const lastBlock = await devnet.rpc.call<any>('block', {});
      await devnet.close();

      devnet = await Devnet.open({ home: home.dir, accounts: 2 });
      const after = await devnet.rpc.call<any>('status');
      assert.equal(after.sync_info.latest_block_height, status.sync_info.latest_block_height);
      assert.equal(after.sync_info.latest_app_hash, status.sync_info.latest_app_hash);
      assert.deepEqual(await devnet.rpc.call<any>('block', {}), lastBlock);
      assert.equal(valueText(await abciQuery(devnet, `/get/currency.balances:${a.address}`)), balance);
      assert.equal(valueText(await abciQuery(devnet, `/get/currency.balances:${b.address}`)), '1000015');
      for (const h of hashes) assert.equal((await devnet.rpc.call<any>('tx', { hash: Buffer.from(h, 'hex').toString('base64') })).hash, h);
      assert.equal(valueText(await abciQuery(devnet, `/get_next_nonce/${a.address}`)), '5');
      const next = await devnet.rpc.call<any>('broadcast_tx_commit', { tx: txParam(signedTx({ privateKey: a.privateKey, sender: a.address, nonce: 5, kwargs: { amount: 1, to: b.address } }).hex) });
      assert.equal(next.tx_result.code, 0);
      assert.equal(next.height, String(Number(status.sync_info.latest_block_height) + 1));
      await devnet.close();

      devnet = await Devnet.open({ home: home.dir, accounts: 2, reset: true });
      assert.equal((await devnet.rpc.call<any>('status')).sync_info.latest_block_height, '1');
      assert.equal(valueText(await abciQuery(devnet, `/get/currency.balances:${b.address}`)), '1E+6');
      await devnet.close();
    } finally {
      home.remove();
    }
  });

  it('a torn last block (and a snapshot ahead of the log) recovers to the last intact block', async () => {
    const home = tempHome();
    try {
      let devnet = await Devnet.open({ home: home.dir, accounts: 2, config: { fsync: false, snapshot_interval_blocks: 1 } });
      const [a, b] = devnet.accounts() as [DevAccount, DevAccount];
      for (let nonce = 0; nonce < 3; nonce++) {
        await devnet.rpc.call('broadcast_tx_commit', { tx: txParam(signedTx({ privateKey: a.privateKey, sender: a.address, nonce, kwargs: { amount: 10, to: b.address } }).hex) });
      }
      const height = devnet.node.height;
      await devnet.close();
      const log = path.join(home.dir, 'data', 'blocks.log');
      const lines = readFileSync(log, 'utf8').split('\n');
      writeFileSync(log, lines.slice(0, height - 1).join('\n') + '\n' + lines[height - 1]!.slice(0, 40)); // the last block torn mid-write
      devnet = await Devnet.open({ home: home.dir, accounts: 2 });
      try {
        assert.equal(devnet.node.height, height - 1);
        assert.equal(valueText(await abciQuery(devnet, `/get/currency.balances:${b.address}`)), '1.00002E+6', 'state matches the surviving blocks (engineering notation)');
        assert.equal(valueText(await abciQuery(devnet, `/get_next_nonce/${a.address}`)), '2');
      } finally {
        await devnet.close();
      }
    } finally {
      home.remove();
    }
  });

  it('a second devnet on the same home is refused', async () => {
    const home = tempHome();
    const devnet = await Devnet.open({ home: home.dir, accounts: 1 });
    try {
      await assert.rejects(Devnet.open({ home: home.dir, accounts: 1 }), /already open/);
    } finally {
      await devnet.close();
      home.remove();
    }
  });

  it('kill -9 mid-run loses at most the block being committed', async () => {
    const home = tempHome();
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(HERE, 'fixtures', 'crash-child.ts'), home.dir], { stdio: ['ignore', 'pipe', 'pipe'] });
      let lastCommitted = 0;
      let stderr = '';
      child.stderr.on('data', (d) => { stderr += d; });
      await new Promise<void>((resolve, reject) => {
        let buffered = '';
        child.stdout.on('data', (d: Buffer) => {
          buffered += d.toString();
          const lines = buffered.split('\n');
          buffered = lines.pop()!;
          for (const line of lines) {
            const m = /^committed (\d+)$/.exec(line);
            if (m) lastCommitted = Number(m[1]);
          }
          if (lastCommitted >= 25) {
            child.kill('SIGKILL');
            resolve();
          }
        });
        child.on('exit', (code, signal) => { if (signal !== 'SIGKILL') reject(new Error(`child exited early (${code}): ${stderr}`)); });
      });
      await new Promise((r) => child.once('exit', r).once('close', r));
      assert.ok(existsSync(path.join(home.dir, 'devnet.lock')), 'the dead process left its lock behind');

      const devnet = await Devnet.open({ home: home.dir, accounts: 2 });
      try {
        const [a, b] = devnet.accounts() as [DevAccount, DevAccount];
        const height = Number((await devnet.rpc.call<any>('status')).sync_info.latest_block_height);
        assert.ok(height >= lastCommitted, `height ${height} after restart, ${lastCommitted} reported committed`);
        // Block 1 is empty; every later block holds one transfer of 1.
        assert.equal(valueText(await abciQuery(devnet, `/get/currency.balances:${b.address}`)), String(1_000_000 + height - 1));
        assert.equal(valueText(await abciQuery(devnet, `/get_next_nonce/${a.address}`)), String(height - 1));
        for (let h = 1; h <= height; h++) assert.equal((await devnet.rpc.call<any>('block', { height: String(h) })).block.header.height, String(h));
        const tx = signedTx({ privateKey: a.privateKey, sender: a.address, nonce: height - 1, kwargs: { amount: 1, to: b.address } });
        assert.equal((await devnet.rpc.call<any>('broadcast_tx_commit', { tx: txParam(tx.hex) })).tx_result.code, 0, 'the chain goes on');
      } finally {
        await devnet.close();
      }
    } finally {
      home.remove();
    }
  });
});
