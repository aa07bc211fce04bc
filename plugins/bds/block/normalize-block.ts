import type { JsonObject, JsonValue } from 'chainhost/chain';
import type { IndexedBlock, IndexedEventInput, IndexedReward, IndexedTransaction } from '../indexer-point.js';
import { isoFromNanos, type BlockPayload, type BlockPayloadTx } from './block-payload.js';
import { jsonText } from './json-text.js';

/**
 * The rows a block makes (bds.md §3): one `transactions` row per executed transaction in block
 * order, then the state-patch pseudo-transaction when patches ran; height 0 is the genesis
 * pseudo-block. State-change and event ids are assigned later by the writer.
 */
export type NormalizedBlock = Omit<IndexedBlock, 'state_changes' | 'events'>;

export function normalizeBlock(payload: BlockPayload): NormalizedBlock {
  const meta = payload.block_meta;
  const nanos = BigInt(meta.nanos);
  const base = {
    height: meta.height,
    hash: meta.hash.toUpperCase(),
    app_hash: payload.app_hash.toUpperCase(),
    chain_id: meta.chain_id,
    time_nanos: nanos,
    time_iso: payload.block_time || isoFromNanos(nanos),
    state_patches: payload.state_patches,
    state_patch_hash: payload.state_patch_hash,
  };
  if (meta.height === 0 || payload.genesis) {
    return { ...base, hash: meta.hash, app_hash: payload.app_hash, transactions: [genesisTransaction(payload.genesis ?? [])] };
  }
  const transactions = payload.transactions.map(transactionOf);
  if (payload.state_patches.length) transactions.push(patchTransaction(payload));
  return { ...base, transactions };
}

function obj(v: unknown): JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as JsonObject) : (Object.create(null) as JsonObject);
}

function str(v: unknown, fallback = ''): string {
  return typeof v === 'string' ? v : v === null || v === undefined ? fallback : jsonText(v);
}

function int(v: unknown): number | bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return Math.trunc(v);
  if (typeof v === 'string' && /^-?[0-9]+$/.test(v)) return BigInt(v) <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : BigInt(v);
  return 0;
}

/** `"None"` → NULL, any other repr string → a JSON string, structured results kept (bds.md §3). */
function resultColumn(result: unknown): JsonValue {
  if (result === undefined || result === null || result === 'None') return null;
  return result as JsonValue;
}

function transactionOf(tx: BlockPayloadTx): IndexedTransaction {
  const out = obj(tx.tx_result);
  const payload = obj(tx.payload);
  const status = Number(int(out.status));
  return {
    hash: str(out.hash).toUpperCase(),
    tx_index: tx.tx_index,
    origin_type: 'transaction',
    sender: str(payload.sender),
    nonce: int(payload.nonce),
    contract: str(payload.contract),
    function: str(payload.function),
    success: status === 0,
    status_code: status,
    chi_used: int(out.chi_used ?? out.stamps_used),
    result: resultColumn(out.result),
    payload: tx.payload,
    envelope: tx.envelope,
    writes: writesOf(out.state),
    events: eventsOf(out.events),
    rewards: rewardsOf(out),
  };
}

function writesOf(state: unknown): Array<{ key: string; value: JsonValue }> {
  if (!Array.isArray(state)) return [];
  return state.filter((w) => typeof obj(w).key === 'string').map((w) => ({ key: obj(w).key as string, value: (obj(w).value ?? null) as JsonValue }));
}

function eventsOf(events: unknown): IndexedEventInput[] {
  if (!Array.isArray(events)) return [];
  return events.map((e) => {
    const ev = obj(e);
    return {
      contract: str(ev.contract),
      event: str(ev.event, 'ContractEvent') || 'ContractEvent',
      signer: str(ev.signer),
      caller: str(ev.caller),
      data_indexed: obj(ev.data_indexed),
      data: obj(ev.data),
    };
  });
}

/** A reward amount as a plain decimal string (ABCI JSON already has one; `{"__fixed__"}` unwrapped). */
function decimalText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  const o = obj(v);
  if (typeof o.__fixed__ === 'string') return o.__fixed__;
  if (typeof o.__big_int__ === 'string') return o.__big_int__;
  return '0';
}

/** `reward_records` when present, else the flattened `rewards` buckets with no source contract (bds.md §3). */
function rewardsOf(out: JsonObject): IndexedReward[] {
  if (Array.isArray(out.reward_records)) {
    return out.reward_records.map((r, i) => {
      const rec = obj(r);
      return {
        reward_index: i,
        type: str(rec.type),
        recipient_key: typeof rec.recipient_key === 'string' ? rec.recipient_key : typeof rec.recipient === 'string' ? rec.recipient : null,
        source_contract: typeof rec.source_contract === 'string' ? rec.source_contract : null,
        value: decimalText(rec.value ?? rec.amount),
      };
    });
  }
  const rewards: IndexedReward[] = [];
  const buckets = obj(out.rewards);
  for (const type of Object.keys(buckets)) {
    const bucket = obj(buckets[type]);
    for (const recipient of Object.keys(bucket)) {
      rewards.push({ reward_index: rewards.length, type, recipient_key: recipient, source_contract: null, value: decimalText(bucket[recipient]) });
    }
  }
  return rewards;
}

function record(entries: Record<string, JsonValue>): JsonObject {
  return Object.assign(Object.create(null) as JsonObject, entries);
}

function genesisTransaction(entries: ReadonlyArray<{ key: string; value: JsonValue }>): IndexedTransaction {
  return {
    hash: 'GENESIS',
    tx_index: 0,
    origin_type: 'genesis',
    sender: 'sys',
    nonce: 0,
    contract: 'GENESIS_SUBMISSION',
    function: 'process_genesis_block',
    success: true,
    status_code: 0,
    chi_used: 0,
    result: record({ genesis_entries: entries.length, status: 'ok' }),
    payload: record({ kind: 'genesis' }),
    envelope: record({ genesis: entries.map((e) => record({ key: e.key, value: e.value })), kind: 'genesis' }),
    writes: entries,
    events: [],
    rewards: [],
  };
}

/** The changes a patch execution list applied, flattened in order. */
export function patchChanges(executions: readonly JsonValue[]): Array<{ key: string; value: JsonValue }> {
  return executions.flatMap((e) => writesOf(obj(e).changes));
}

function patchTransaction(payload: BlockPayload): IndexedTransaction {
  const changes = patchChanges(payload.state_patches);
  return {
    hash: payload.state_patch_hash ?? `STATE_PATCH_${payload.block_meta.height}`,
    tx_index: payload.block_tx_count,
    origin_type: 'state_patch',
    sender: 'sys',
    nonce: 0,
    contract: 'STATE_PATCHER',
    function: 'STATE_PATCH',
    success: true,
    status_code: 0,
    chi_used: 0,
    result: record({ bundle_count: payload.state_patches.length, comment: 'Governed state patch pseudo-transaction', patch_count: changes.length }),
    payload: record({ kind: 'state_patch' }),
    envelope: record({ executions: payload.state_patches as JsonValue[], kind: 'state_patch' }),
    writes: changes,
    events: [],
    rewards: [],
  };
}
