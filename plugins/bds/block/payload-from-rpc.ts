import { type AbciEvent, canonicalJson, compareCodePoints, decodeRawTx, decodeTxResultData, type JsonObject, type JsonValue, parseJsonExact, type ResultBlock, type ResultBlockResults, type ResultGenesis, sha256Hex } from 'chainhost/chain';
import { BLOCK_PAYLOAD_VERSION, BlockPayloadError, blockTimeOf, type BlockPayload, type BlockPayloadTx } from './block-payload.js';

/**
 * A block payload from RPC `/block` + `/block_results`, as the upstream reindexer builds it
 * (bds.md §9.1): equal tx/result counts; each tx decoded from its raw bytes, its execution
 * output from `data`; transactions rejected inside the block (`{"error": …}`, no `chi_used`)
 * are not indexed; hashes and the app hash uppercase; block time truncated to microseconds.
 */
export interface StatePatchRecord {
  executions: JsonValue[];
  patch_hash: string | null;
}

export function payloadFromRpc(block: ResultBlock, results: ResultBlockResults, patches: StatePatchRecord | null = null): BlockPayload {
  const header = block.block.header;
  const height = Number(header.height);
  const txs = block.block.data.txs ?? [];
  const txResults = results.txs_results ?? [];
  if (txs.length !== txResults.length) {
    throw new BlockPayloadError(`block ${height} tx/result count mismatch: ${txs.length} txs vs ${txResults.length} results`);
  }
  const transactions: BlockPayloadTx[] = [];
  txs.forEach((raw, i) => {
    const rpcResult = txResults[i]!;
    const data = decodeTxResultData(rpcResult.data);
    if (data.kind !== 'execution' || data.output.chi_used === null) return; // rejected inside the block
    const decoded = decodeRawTx(raw);
    const envelope = withoutBlockMeta(decoded.tx);
    const out = data.output;
    const txResult = Object.assign(Object.create(null) as JsonObject, out as unknown as JsonObject, {
      hash: decoded.hash,
      status: Number.isFinite(out.status) ? out.status : rpcResult.code,
      chi_used: out.chi_used ?? Number(rpcResult.gas_used),
    }) as JsonObject;
    transactions.push({ tx_index: i, envelope, payload: (envelope as JsonObject).payload ?? null, tx_result: txResult });
  });
  const time = blockTimeOf(header.time);
  return {
    version: BLOCK_PAYLOAD_VERSION,
    block_meta: { chain_id: header.chain_id, hash: block.block_id.hash.toUpperCase(), height, nanos: time.nanos.toString() },
    block_time: time.iso,
    app_hash: header.app_hash.toUpperCase(),
    parent_hash: header.last_block_id?.hash ? header.last_block_id.hash.toUpperCase() : null,
    block_tx_count: txs.length,
    transactions,
    state_patches: patches?.executions ?? patchesFromEvents(results.finalize_block_events ?? []).executions,
    state_patch_hash: patches?.patch_hash ?? patchesFromEvents(results.finalize_block_events ?? []).patch_hash,
  };
}

function withoutBlockMeta(tx: JsonValue): JsonValue {
  if (tx === null || typeof tx !== 'object' || Array.isArray(tx) || !('b_meta' in tx)) return tx;
  const copy = Object.assign(Object.create(null) as JsonObject, tx);
  delete copy.b_meta;
  return copy;
}

/**
 * Applied state patches announced in `finalize_block_events`: an event of type `StatePatch`
 * whose `executions` attribute is the JSON execution list (contracts.md §8) and `patch_hash` the
 * aggregate hash. Nodes that do not announce them index no patches unless a patch source is given.
 */
export function patchesFromEvents(events: readonly AbciEvent[]): StatePatchRecord {
  for (const event of events) {
    if (event.type !== 'StatePatch' && event.type !== 'state_patch') continue;
    const attrs = new Map(event.attributes.map((a) => [a.key, a.value]));
    try {
      const executions = parseJsonExact(attrs.get('executions') ?? '[]');
      if (Array.isArray(executions) && executions.length) return { executions, patch_hash: attrs.get('patch_hash') || aggregatePatchHash(executions) };
    } catch {
      // not ours
    }
  }
  return { executions: [], patch_hash: null };
}

/**
 * The block's aggregate patch hash (contracts.md §8): SHA-256 of the canonical JSON list of the
 * executions' `execution_hash`, in `patch_id` order. Null when an execution lacks its hash.
 */
export function aggregatePatchHash(executions: readonly JsonValue[]): string | null {
  const list = executions.map((e) => (e && typeof e === 'object' && !Array.isArray(e) ? e : {})) as JsonObject[];
  if (list.some((e) => typeof e.execution_hash !== 'string' || typeof e.patch_id !== 'string')) return null;
  const hashes = [...list].sort((a, b) => compareCodePoints(a.patch_id as string, b.patch_id as string)).map((e) => e.execution_hash as string);
  return sha256Hex(canonicalJson(hashes));
}

/** The genesis pseudo-block (height 0) from `/genesis`: `app_state.abci_genesis.genesis[]` (or `app_state.genesis[]`). */
export function genesisPayload(genesis: ResultGenesis['genesis']): BlockPayload {
  return {
    version: BLOCK_PAYLOAD_VERSION,
    block_meta: { chain_id: genesis.chain_id, hash: 'GENESIS', height: 0, nanos: '0' },
    block_time: '1970-01-01T00:00:00+00:00',
    app_hash: 'GENESIS',
    block_tx_count: 0,
    transactions: [],
    state_patches: [],
    state_patch_hash: null,
    genesis: genesisEntries(genesis.app_state),
  };
}

export function genesisEntries(appState: unknown): Array<{ key: string; value: JsonValue }> {
  const state = (appState ?? {}) as Record<string, unknown>;
  const nested = (state.abci_genesis as Record<string, unknown> | undefined)?.genesis ?? state.genesis ?? (Array.isArray(appState) ? appState : []);
  if (!Array.isArray(nested)) return [];
  const out: Array<{ key: string; value: JsonValue }> = [];
  for (const entry of nested) {
    if (Array.isArray(entry) && typeof entry[0] === 'string') out.push({ key: entry[0], value: (entry[1] ?? null) as JsonValue });
    else if (entry && typeof entry === 'object' && typeof (entry as { key?: unknown }).key === 'string') {
      out.push({ key: (entry as { key: string }).key, value: ((entry as { value?: JsonValue }).value ?? null) as JsonValue });
    }
  }
  return out;
}
