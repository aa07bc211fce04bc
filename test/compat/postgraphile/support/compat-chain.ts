import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { JsonObject } from '../../../../core/chain/canonical-json.js';
import { ChainNode } from '../../../../core/chain/node.js';
import { encodeTransaction, signTransaction } from '../../../../core/chain/transaction.js';
import { ChainBlockSource } from '../../../../plugins/bds/block/chain-block-source.js';
import { Devnet, type DevAccount } from '../../../../plugins/devnet/index.js';
import { XSC001_SOURCE } from '../../../../plugins/devnet/engine/contracts/xsc001-token.js';
import { loadStatePatchBundle } from '../../../../plugins/devnet/engine/state-patches.js';
import { buildGenesisDoc, genesisEntries, genesisTimeNanos, readGenesisDoc, writeGenesisDoc } from '../../../../plugins/devnet/node/genesis-doc.js';
import { loadNodeIdentity } from '../../../../plugins/devnet/node/node-identity.js';
import { encodeStateText } from '../../../../plugins/devnet/node/state-reader.js';
import { openService, waitIndexed } from '../../../plugins/bds/support/bds-harness.js';

/**
 * A BDS database filled by the devnet the way a real chain fills one: genesis (the DEX and test
 * tokens), currency transfers (several in one block, so ordering ties exist), an XSC001 token
 * deployed through `submission.submit_contract` and moved, approvals and DEX swaps, a failed
 * transaction, and a governed state patch applied at its activation height. The facts the query
 * corpus needs (hashes, heights, addresses) are returned.
 */
export interface CompatChain {
  accounts: string[];
  token: string;
  transfers: string[];
  /** Hashes of the transactions that landed in one block together. */
  batch: { height: number; blockHash: string; hashes: string[] };
  deploy: string;
  swaps: string[];
  failed: string;
  patchHeight: number;
  /** `state_patches.hash` of the applied patch. */
  patchHash: string;
  latestHeight: number;
}

const PATCH_ID = 'fix-balance';
const DEADLINE = { __time__: [2099, 1, 1, 0, 0, 0, 0] };
const fixed = (v: string) => ({ __fixed__: v });

/** Writes the chain into the (empty) `public` schema of `databaseUrl`; `home` is a scratch directory. */
export async function fillCompatChain(databaseUrl: string, home: string): Promise<CompatChain> {
  const devHome = path.join(home, 'devnet');
  const patchHeight = 30;
  // A first open writes the genesis and the node identity; the genesis then gains the
  // governance records that schedule a state patch (as an approved proposal would leave them),
  // and the chain restarts from that genesis.
  const first = await Devnet.open({ home: devHome, accounts: 4, config: { fsync: false } });
  const accounts = first.accounts();
  await first.close();
  const bundleDir = path.join(devHome, 'config', 'state-patches');
  mkdirSync(bundleDir, { recursive: true });
  const bundleJson = {
    version: 1, patch_id: PATCH_ID, activation_height: patchHeight, governance_contract: 'governance', summary: 'Restore a balance',
    uri: 'https://example.invalid/patches/fix-balance',
    changes: [
      { key: `currency.balances:${accounts[3]!.address}`, value: fixed('4242.5'), comment: 'restore' },
      { key: 'con_compat_note.flag', value: true, comment: 'a new key' },
    ],
  };
  const bundleFile = path.join(bundleDir, `${PATCH_ID}.json`);
  writeFileSync(bundleFile, JSON.stringify(bundleJson));
  const bundle = loadStatePatchBundle(bundleJson, bundleFile);
  const genesisFile = path.join(devHome, 'config', 'genesis.json');
  const doc = readGenesisDoc(genesisFile)!;
  const field = (f: string, v: string | bigint | boolean): [string, string] => [`governance.patches:${PATCH_ID}:${f}`, encodeStateText(v)];
  const entries = [
    ...genesisEntries(doc),
    [`governance.scheduled_patches:${patchHeight}:${PATCH_ID}`, encodeStateText(true)] as [string, string],
    field('status', 'approved'), field('bundle_hash', bundle.bundle_hash), field('proposal_id', 3n), field('activation_height', BigInt(patchHeight)),
    field('summary', bundleJson.summary), field('uri', bundleJson.uri), field('emergency', false),
  ];
  writeGenesisDoc(genesisFile, buildGenesisDoc({
    chainId: doc.chain_id, timeNanos: genesisTimeNanos(doc), validator: loadNodeIdentity(devHome).validator, entries,
    maxBlockBytes: Number((doc.consensus_params as { block: { max_bytes: string } }).block.max_bytes),
  }));
  rmSync(path.join(devHome, 'data'), { recursive: true, force: true });

  const devnet = await Devnet.open({ home: devHome, accounts: 4, config: { fsync: false } });
  const node = new ChainNode(devnet.rpc);
  const service = await openService({ kind: 'postgres', home, url: databaseUrl, pgliteDir: null, schema: 'public' }, new ChainBlockSource(node));
  try {
    await service.prepare();
    service.start();
    const nonces = new Map<string, number>();
    const sign = async (from: DevAccount, contract: string, fn: string, kwargs: JsonObject, chi = 5000) => {
      const nonce = nonces.get(from.address) ?? Number((await node.query(`/get_next_nonce/${from.address}`)).value?.text ?? '0');
      nonces.set(from.address, nonce + 1);
      return encodeTransaction(signTransaction({ chain_id: devnet.chainId, chi_supplied: chi, contract, function: fn, kwargs, nonce, sender: from.address }, from.privateKey)).hex;
    };
    const send = async (from: DevAccount, contract: string, fn: string, kwargs: JsonObject, expectSuccess = true, chi = 5000) => {
      const r = await node.broadcastTxCommit(await sign(from, contract, fn, kwargs, chi));
      if (r.check_tx.code !== 0) throw new Error(`${contract}.${fn} refused by CheckTx: ${r.check_tx.log}`);
      const ok = r.tx_result.code === 0;
      if (ok !== expectSuccess) throw new Error(`${contract}.${fn} ${ok ? 'succeeded' : `failed: ${r.tx_result.log}`} (expected ${expectSuccess ? 'success' : 'failure'})`);
      return r.hash.toUpperCase();
    };
    const [alice, bob, carol, dave] = accounts as [DevAccount, DevAccount, DevAccount, DevAccount];

    const transfers: string[] = [];
    transfers.push(await send(alice, 'currency', 'transfer', { amount: fixed('12.5'), to: bob.address }));
    transfers.push(await send(bob, 'currency', 'transfer', { amount: fixed('3'), to: carol.address }));
    transfers.push(await send(alice, 'currency', 'transfer', { amount: 7, to: dave.address }));
    // Three senders in one tick: one block with three transactions (ties for BLOCK_HEIGHT
    // orderings). The node cuts a block on the next setImmediate, so they land together; should
    // a batch ever split, the next attempt is another batch.
    let batch: CompatChain['batch'] | null = null;
    for (let attempt = 0; attempt < 3 && !batch; attempt++) {
      const batchTxs = await Promise.all([
        sign(alice, 'currency', 'transfer', { amount: fixed('1.25'), to: carol.address }),
        sign(bob, 'currency', 'transfer', { amount: fixed('2.5'), to: dave.address }),
        sign(carol, 'currency', 'transfer', { amount: fixed('0.1'), to: alice.address }),
      ]);
      const results = await Promise.all(batchTxs.map((hex) => node.broadcastTxCommit(hex)));
      transfers.push(...results.map((r) => r.hash.toUpperCase()));
      const heights = new Set(results.map((r) => Number(r.height)));
      if (heights.size !== 1) continue;
      const height = [...heights][0]!;
      batch = { height, blockHash: (await node.block(height)).block_id.hash.toUpperCase(), hashes: results.map((r) => r.hash.toUpperCase()) };
    }
    if (!batch) throw new Error('three transactions sent in one tick never landed in one block');

    const token = 'con_compat_token';
    const deploy = await send(alice, 'submission', 'submit_contract', {
      name: token, code: XSC001_SOURCE,
      constructor_args: { token_name: 'Compat Token', token_symbol: 'CPT', total_supply: 1_000_000, token_logo_url: '', token_website: '' },
    }, true, 200_000);
    transfers.push(await send(alice, token, 'transfer', { amount: 2500, to: bob.address }));
    transfers.push(await send(bob, token, 'transfer', { amount: fixed('99.75'), to: carol.address }));

    const swaps: string[] = [];
    await send(carol, 'currency', 'approve', { amount: fixed('1000'), to: 'con_dex' });
    swaps.push(await send(carol, 'con_dex', 'swapExactTokenForToken', { amountIn: fixed('10'), amountOutMin: fixed('0'), pair: 1, src: 'currency', to: carol.address, deadline: DEADLINE }, true, 50_000));
    swaps.push(await send(carol, 'con_dex', 'swapExactTokenForToken', { amountIn: fixed('25.5'), amountOutMin: fixed('0'), pair: 2, src: 'currency', to: carol.address, deadline: DEADLINE }, true, 50_000));
    await send(dave, 'currency', 'approve', { amount: fixed('500'), to: 'con_dex' });
    swaps.push(await send(dave, 'con_dex', 'swapExactTokenForToken', { amountIn: fixed('4'), amountOutMin: fixed('0'), pair: 1, src: 'currency', to: dave.address, deadline: DEADLINE }, true, 50_000));

    const failed = await send(bob, 'currency', 'transfer', { amount: fixed('-1'), to: alice.address }, false);

    // Empty blocks up to one past the patch's activation height.
    let height = Number((await node.status()).sync_info.latest_block_height);
    if (height >= patchHeight) throw new Error(`the chain reached ${height} before the state patch height ${patchHeight}`);
    while (height <= patchHeight) height = (await devnet.mine()).height;
    await waitIndexed(service, height, 60_000);
    const patch = (await service.db.knex.raw('SELECT hash FROM state_patches WHERE block_height = ?', [patchHeight])).rows[0] as { hash: string } | undefined;
    if (!patch) throw new Error(`the state patch scheduled at ${patchHeight} was not indexed`);
    return {
      accounts: accounts.map((a) => a.address), token, transfers, batch, deploy, swaps, failed, patchHeight, patchHash: patch.hash, latestHeight: height,
    };
  } finally {
    await service.stop().catch(() => undefined);
    await devnet.close();
  }
}
