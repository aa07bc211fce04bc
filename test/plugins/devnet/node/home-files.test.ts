import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Devnet } from '../../../../plugins/devnet/node/devnet.js';
import { openDevnet, tempHome } from './devnet-fixture.js';

/**
 * Issue #30: a start-up failure caused by a file under the devnet home names the file, what is
 * wrong with it and what to do (fix, delete, restore or reset) — not a bare parser error.
 */
describe('devnet home files: start-up errors name the file and the remedy', function () {
  this.timeout(60_000);

  /** A home with a few committed blocks, closed again. */
  async function home(): Promise<ReturnType<typeof tempHome>> {
    const h = tempHome();
    const net = await openDevnet({ home: h.dir });
    await net.devnet.mine();
    await net.devnet.mine();
    await net.devnet.close();
    return h;
  }

  const cases: Array<{ name: string; file: string; damage: (file: string) => void; problem: RegExp; remedy: RegExp }> = [
    {
      name: 'chain.toml that is not TOML', file: 'config/chain.toml',
      damage: (f) => appendFileSync(f, '\nmempool_size = = 3\n'), problem: /./, remedy: /fix it, or delete the file to have it written again with the defaults/,
    },
    {
      name: 'chain.toml with a bad value', file: 'config/chain.toml',
      damage: (f) => writeFileSync(f, readFileSync(f, 'utf8').replace(/^fsync = .*$/m, 'fsync = "yes"')), problem: /fsync = "yes" is invalid; expected true or false/, remedy: /delete the file/,
    },
    {
      name: 'a validator key that is not JSON', file: 'config/priv_validator_key.json',
      damage: (f) => writeFileSync(f, '{"priv_key": {"value": '), problem: /not valid JSON/, remedy: /restore it from a backup, or start a new chain with reset/,
    },
    {
      name: 'a node key of the wrong size', file: 'config/node_key.json',
      damage: (f) => writeFileSync(f, JSON.stringify({ priv_key: { value: 'AAAA' } })), problem: /64-byte Ed25519 key/, remedy: /reset/,
    },
    {
      name: 'a truncated genesis.json', file: 'config/genesis.json',
      damage: (f) => writeFileSync(f, '{"genesis_time": "2024-'), problem: /not valid JSON/, remedy: /reset/,
    },
    {
      name: 'a genesis.json of the wrong shape', file: 'config/genesis.json',
      damage: (f) => writeFileSync(f, JSON.stringify({ chain_id: 'chain-local-1', genesis_time: '2024-01-01T00:00:00Z', app_hash: '', consensus_params: {}, app_state: {} })),
      problem: /not a devnet genesis document: app_state.abci_genesis.genesis is not a list/, remedy: /reset/,
    },
    {
      name: 'a block log record that is whole but not a block', file: 'data/blocks.log',
      damage: (f) => {
        const json = JSON.stringify({ height: 4, hello: 'world' });
        appendFileSync(f, `${json}\t${createHash('sha256').update(json).digest('hex').slice(0, 16)}\n`);
      },
      problem: /is corrupt at byte \d+ \(block_id.hash is missing\)/, remedy: /restore it or start over with reset/,
    },
  ];

  it('a damaged state.snapshot is not fatal: start-up says so, names the file, and replays the log', async () => {
    const h = await home();
    try {
      const file = path.join(h.dir, 'data', 'state.snapshot');
      const before = await Devnet.open({ home: h.dir, accounts: 3, config: { fsync: false } });
      const height = before.node.height;
      const root = before.node.store.latest()!.app_hash;
      await before.close();
      writeFileSync(file, readFileSync(file, 'utf8').replace('"height"', '"heigth"'));
      const warnings: string[] = [];
      const logger = { debug() {}, info() {}, error() {}, warn: (m: string) => { warnings.push(m); }, child() { return logger; } };
      const after = await Devnet.open({ home: h.dir, accounts: 3, config: { fsync: false }, logger });
      try {
        assert.equal(after.node.height, height);
        assert.equal(after.node.store.latest()!.app_hash, root);
        assert.ok(warnings.some((w) => w.includes(file) && /damaged \(checksum mismatch\); replaying the block log from genesis/.test(w)), warnings.join('\n'));
      } finally {
        await after.close();
      }
    } finally {
      h.remove();
    }
  });

  for (const c of cases) {
    it(c.name, async () => {
      const h = await home();
      try {
        const file = path.join(h.dir, c.file);
        c.damage(file);
        await assert.rejects(Devnet.open({ home: h.dir, accounts: 3 }), (err: Error) => {
          assert.ok(err.message.includes(file), `names ${file}: ${err.message}`);
          assert.match(err.message, c.problem);
          assert.match(err.message, c.remedy);
          return true;
        });
        // The failed open let go of the home: opening again with reset works.
        const fresh = await Devnet.open({ home: h.dir, accounts: 3, reset: true, config: { fsync: false } }).catch((err: Error) => err);
        if (fresh instanceof Devnet) await fresh.close();
      } finally {
        h.remove();
      }
    });
  }
});
