import type { JsonObject, JsonValue } from 'chainhost/chain';
import type { IndexedEvent, IndexedTransaction } from '../indexer-point.js';

/**
 * Shielded outputs of one transaction (bds.md §5.4, contracts.md §10): from the
 * `ShieldedOutputsCommitted` batch event (or the legacy single-output event) of the contract the
 * transaction called, each with the tags found in its `output_payloads` entry.
 */
export interface ShieldedOutput {
  output_index: number;
  note_index: number | null;
  commitment: string;
  new_root: string;
  payload_hash: string;
  action: string;
  tags: Array<{ kind: 'sync_hint' | 'discovery_tag'; value: string }>;
}

function obj(v: unknown): JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as JsonObject) : (Object.create(null) as JsonObject);
}

function intOf(v: unknown): number | null {
  if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
  if (typeof v === 'bigint' && v >= 0n && v <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(v);
  if (typeof v === 'string' && /^-?[0-9]{1,15}$/.test(v)) return Number(v);
  return null;
}

function blob(v: unknown): string[] {
  return typeof v === 'string' && v.length ? v.split('|') : [];
}

export function outputPayloadsOf(tx: IndexedTransaction): JsonValue[] | null {
  const kwargs = obj(obj(tx.payload).kwargs);
  const payloads = kwargs.output_payloads;
  return Array.isArray(payloads) && payloads.length ? payloads : null;
}

export function shieldedOutputsOf(tx: IndexedTransaction, events: readonly IndexedEvent[]): ShieldedOutput[] {
  const payloads = outputPayloadsOf(tx);
  if (!payloads) return [];
  const contract = String(obj(tx.payload).contract ?? '');
  const out: ShieldedOutput[] = [];
  for (const ev of events) {
    if (ev.contract !== contract) continue;
    const data = ev.data;
    const indexed = ev.data_indexed;
    const newRoot = typeof indexed.new_root === 'string' ? indexed.new_root : '';
    const action = typeof data.action === 'string' && data.action ? data.action : tx.function;
    if (ev.event === 'ShieldedOutputsCommitted') {
      const start = intOf(data.note_index_start);
      if (start === null) continue;
      const commitments = blob(data.commitments_blob);
      const hashes = blob(data.payload_hashes_blob);
      const count = intOf(data.output_count) ?? commitments.length;
      if (commitments.length < count || hashes.length < count) continue;
      for (let i = 0; i < count; i++) {
        if (i >= payloads.length) continue;
        out.push({ output_index: i, note_index: start + i, commitment: commitments[i]!, new_root: newRoot, payload_hash: hashes[i]!, action, tags: tagsOf(payloads[i]) });
      }
    } else if (ev.event === 'ShieldedOutputCommitted') {
      const index = intOf(data.output_index);
      if (index === null || index < 0 || index >= payloads.length) continue;
      out.push({
        output_index: index,
        note_index: intOf(data.note_index),
        commitment: typeof indexed.commitment === 'string' ? indexed.commitment : '',
        new_root: newRoot,
        payload_hash: typeof data.payload_hash === 'string' ? data.payload_hash : '',
        action,
        tags: tagsOf(payloads[index]),
      });
    }
  }
  return out;
}

/** contracts.md §10.2: `0x` + hex of UTF-8 JSON `{"ciphertexts":[{sync_hint, discovery_tag, …}], "version":2}`; malformed → no tags. */
export function tagsOf(payload: unknown): Array<{ kind: 'sync_hint' | 'discovery_tag'; value: string }> {
  if (typeof payload !== 'string') return [];
  const hex = payload.startsWith('0x') || payload.startsWith('0X') ? payload.slice(2) : payload;
  if (!hex.length || hex.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(hex)) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(hex, 'hex')));
  } catch {
    return [];
  }
  const ciphertexts = obj(parsed).ciphertexts;
  if (!Array.isArray(ciphertexts)) return [];
  const seen = new Set<string>();
  const tags: Array<{ kind: 'sync_hint' | 'discovery_tag'; value: string }> = [];
  for (const c of ciphertexts) {
    for (const kind of ['sync_hint', 'discovery_tag'] as const) {
      const value = obj(c)[kind];
      if (typeof value !== 'string' || !value.length || seen.has(`${kind}\u0000${value}`)) continue;
      seen.add(`${kind}\u0000${value}`);
      tags.push({ kind, value });
    }
  }
  return tags;
}
