import type { Knex } from 'knex';

/**
 * A small, fully known BDS history written straight into the v7 tables: genesis plus six
 * blocks of three transactions (one failed), a Transfer or Swap event each (Swap pairs stored
 * as 7 and "7" alternately), one balance write each, rewards, two contracts, a state patch and
 * shielded outputs. Block times are nanoseconds beyond 2^53, to check BigInt precision.
 */
export const SENDERS = ['alice', 'bob', 'carol'] as const;
export const BLOCK_COUNT = 6;
export const TXS_PER_BLOCK = 3;

export interface FixtureBlock { height: number; block_hash: string; block_time: string; block_time_iso: string; tx_count: number; app_hash: string }
export interface FixtureTx {
  hash: string; block_height: number; block_hash: string; block_time: string; tx_index: number; sender: string; nonce: number;
  contract: string; function: string; success: boolean; status_code: number; chi_used: number; result: unknown; payload: unknown; envelope: unknown; created_at: string;
}
export interface FixtureEvent { block_height: number; tx_hash: string; tx_index: number; event_index: number; contract: string; event: string; signer: string; caller: string; data_indexed: Record<string, unknown>; data: Record<string, unknown>; created_at: string }
export interface FixtureReward { block_height: number; tx_hash: string | null; tx_index: number; reward_index: number; type: string; recipient_key: string | null; source_contract: string | null; value: string; created_at: string }

export const iso = (h: number) => `2026-01-01T00:00:${String(h).padStart(2, '0')}+00:00`;
/** PostGraphile's Datetime form of `iso(h)`. */
export const pgIso = (h: number) => `2026-01-01T00:00:${String(h).padStart(2, '0')}.000000+00:00`;
export const blockTime = (h: number) => ((1767225600n + BigInt(h)) * 1_000_000_000n).toString();
export const blockHash = (h: number) => (h === 0 ? 'GENESIS' : `B${String(h).padStart(63, '0')}`);
export const txHash = (h: number, i: number) => `T${String(h).padStart(2, '0')}${String(i).padStart(61, '0')}`;

export function fixtureBlocks(): FixtureBlock[] {
  return Array.from({ length: BLOCK_COUNT + 1 }, (_v, h) => ({
    height: h, block_hash: blockHash(h), block_time: blockTime(h), block_time_iso: iso(h),
    tx_count: h === 0 ? 1 : TXS_PER_BLOCK, app_hash: h === 0 ? 'GENESIS' : `APP${h}`,
  }));
}

export function fixtureTxs(): FixtureTx[] {
  const txs: FixtureTx[] = [{
    hash: 'GENESIS', block_height: 0, block_hash: 'GENESIS', block_time: blockTime(0), tx_index: 0, sender: 'sys', nonce: 0,
    contract: 'GENESIS_SUBMISSION', function: 'process_genesis_block', success: true, status_code: 0, chi_used: 0,
    result: { genesis_entries: 2, status: 'ok' }, payload: { kind: 'genesis' }, envelope: { genesis: [], kind: 'genesis' }, created_at: iso(0),
  }];
  for (let h = 1; h <= BLOCK_COUNT; h++) {
    for (let i = 0; i < TXS_PER_BLOCK; i++) {
      const sender = SENDERS[(h + i) % 3]!;
      const contract = i === 2 ? 'con_pairs' : 'currency';
      const fn = contract === 'currency' ? 'transfer' : 'swap';
      const success = !(h === 4 && i === 1);
      const payload = { chain_id: 'chain-local-1', contract, function: fn, kwargs: { amount: { __fixed__: `${h}.5` }, to: 'dave' }, nonce: h * 10 + i, sender };
      txs.push({
        hash: txHash(h, i), block_height: h, block_hash: blockHash(h), block_time: blockTime(h), tx_index: i, sender, nonce: h * 10 + i,
        contract, function: fn, success, status_code: success ? 0 : 1, chi_used: 100 * h + i,
        result: success ? (i === 0 ? null : 'ok') : 'AssertionError: not enough', payload, envelope: { metadata: { signature: `sig${h}${i}` }, payload }, created_at: iso(h),
      });
    }
  }
  return txs;
}

export function fixtureEvents(): FixtureEvent[] {
  const events: FixtureEvent[] = [];
  for (const tx of fixtureTxs()) {
    if (tx.block_height === 0) continue;
    const swap = tx.contract === 'con_pairs';
    events.push({
      block_height: tx.block_height, tx_hash: tx.hash, tx_index: tx.tx_index, event_index: 0, contract: tx.contract,
      event: swap ? 'Swap' : 'Transfer', signer: tx.sender, caller: tx.sender,
      data_indexed: swap ? { pair: tx.block_height % 2 ? 7 : '7' } : { from: tx.sender, to: 'dave' },
      data: swap ? { amount_in: { __fixed__: `${tx.block_height}.5` } } : { amount: { __fixed__: `${tx.block_height}.5` } },
      created_at: tx.created_at,
    });
    if (tx.tx_index === 0) {
      events.push({
        block_height: tx.block_height, tx_hash: tx.hash, tx_index: 0, event_index: 1, contract: 'currency', event: 'Approve',
        signer: tx.sender, caller: tx.sender, data_indexed: { owner: tx.sender }, data: { amount: 1 }, created_at: tx.created_at,
      });
    }
  }
  return events;
}

export function fixtureRewards(): FixtureReward[] {
  const rewards: FixtureReward[] = [];
  for (let h = 1; h <= BLOCK_COUNT; h++) {
    rewards.push({ block_height: h, tx_hash: txHash(h, 0), tx_index: 0, reward_index: 0, type: 'developer_reward', recipient_key: 'alice', source_contract: 'currency', value: `${h}.25`, created_at: iso(h) });
    rewards.push({ block_height: h, tx_hash: txHash(h, 0), tx_index: 0, reward_index: 1, type: 'validator_reward', recipient_key: 'val1', source_contract: null, value: '10', created_at: iso(h) });
  }
  return rewards;
}

const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

/** Writes the fixture into an empty v7 schema (search path = that schema). */
export async function writeFixture(knex: Knex): Promise<void> {
  await knex.transaction(async (trx) => {
    for (const b of fixtureBlocks()) {
      await trx.raw(`INSERT INTO blocks VALUES (?, ?, ?::bigint, ?::timestamptz, ?, ?, ?::timestamptz)`, [b.height, b.block_hash, b.block_time, b.block_time_iso, b.tx_count, b.app_hash, b.block_time_iso]);
    }
    for (const t of fixtureTxs()) {
      await trx.raw(
        `INSERT INTO transactions VALUES (?, ?, ?, ?::bigint, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?::jsonb, ?::timestamptz)`,
        [t.hash, t.block_height, t.block_hash, t.block_time, t.tx_index, t.sender, t.nonce, t.contract, t.function, t.success, t.status_code, t.chi_used, json(t.result), json(t.payload), json(t.envelope), t.created_at],
      );
      await trx.raw(
        `INSERT INTO state_changes (block_height, block_hash, block_time, tx_hash, tx_index, write_index, key, new_value, previous_change_id, previous_tx_hash, origin_type, created_at)
         VALUES (?, ?, ?::bigint, ?, ?, 0, ?, ?::jsonb, (SELECT max(change_id) FROM state_changes WHERE key = ?), NULL, ?, ?::timestamptz)`,
        [t.block_height, t.block_hash, t.block_time, t.hash, t.tx_index, `currency.balances:${t.sender}`, json({ __fixed__: `${1000 - t.nonce}.5` }), `currency.balances:${t.sender}`, t.block_height === 0 ? 'genesis' : 'transaction', t.created_at],
      );
    }
    await trx.raw(
      `INSERT INTO state (key, value, last_change_id, last_tx_hash, last_block_height, updated_at)
       SELECT DISTINCT ON (key) key, new_value, change_id, tx_hash, block_height, created_at FROM state_changes ORDER BY key, change_id DESC`,
    );
    for (const e of fixtureEvents()) {
      await trx.raw(
        `INSERT INTO events (block_height, tx_hash, tx_index, event_index, contract, event, signer, caller, data_indexed, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::jsonb, ?::timestamptz)`,
        [e.block_height, e.tx_hash, e.tx_index, e.event_index, e.contract, e.event, e.signer, e.caller, json(e.data_indexed), json(e.data), e.created_at],
      );
    }
    for (const r of fixtureRewards()) {
      await trx.raw(
        `INSERT INTO rewards (block_height, tx_hash, tx_index, reward_index, type, recipient_key, source_contract, value, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?::numeric, ?::timestamptz)`,
        [r.block_height, r.tx_hash, r.tx_index, r.reward_index, r.type, r.recipient_key, r.source_contract, r.value, r.created_at],
      );
    }
    await trx.raw(
      `INSERT INTO addresses SELECT sender, count(*), min(block_height), min(created_at), max(block_height), max(tx_index), max(created_at), NULL, 'currency', 'transfer', max(created_at)
       FROM transactions GROUP BY sender`,
    );
    await trx.raw(`INSERT INTO contracts VALUES ('currency', 'GENESIS', 0, ?::timestamptz, 'balances = Hash()', TRUE), ('con_pairs', ?, 1, ?::timestamptz, 'pairs = Hash()', FALSE)`, [iso(0), txHash(1, 2), iso(1)]);
    await trx.raw(`INSERT INTO state_patches VALUES ('PATCH3', 3, ?, ?::bigint, 1, ?::jsonb, ?::timestamptz)`, [blockHash(3), blockTime(3), json([{ key: 'currency.balances:alice', value: 5 }]), iso(3)]);
    for (const output of [0, 1]) {
      const values = [5, txHash(5, 0), 0, 'con_shielded', 'transfer', 'transfer', output, output === 0 ? 40 : null, `C${output}`, 'ROOT', `P${output}`, iso(5)];
      await trx.raw(`INSERT INTO shielded_outputs (block_height, tx_hash, tx_index, contract, function, action, output_index, note_index, commitment, new_root, payload_hash, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::timestamptz)`, values);
      await trx.raw(`INSERT INTO shielded_output_tags (block_height, tx_hash, tx_index, contract, function, action, output_index, note_index, commitment, new_root, payload_hash, created_at, tag_kind, tag_value) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::timestamptz, 'sync_hint', ?)`, [...values, `0xsync_${output}`]);
    }
  });
}
