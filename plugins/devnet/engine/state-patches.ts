import { type ChainValue, compactJson, decodeValue, type JsonValue, pythonRepr, sha256Hex } from 'chainhost/chain';
import { compileContract } from 'chainhost/contracting';
import type { StateReader } from './types.js';

/**
 * Governed state patches (contracts.md §8). Bundles are JSON files the node loads from
 * `<home>/config/state-patches/*.json`; governance schedules them in state
 * (`<gov>.scheduled_patches:<height>:<patch_id>`, `<gov>.patches:<patch_id>:…`). At FinalizeBlock
 * of height H, after the transactions and rewards and before the state root, the node calls
 * `applyStatePatches` and writes what it returns; a missing or mismatching local bundle is a
 * StatePatchHaltError, on which the node must halt (upstream's exact messages).
 */

export const STATE_PATCH_BUNDLE_VERSION = 1;
export const DEFAULT_GOVERNANCE_CONTRACT = 'governance';
const PATCH_ID = /^[a-z0-9][a-z0-9_-]{2,127}$/;
const IR_KEY = '__xian_ir_v1__';

export class StatePatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StatePatchError';
  }
}

/** The node must stop: governance approved a patch this node cannot apply identically. */
export class StatePatchHaltError extends StatePatchError {
  constructor(message: string) {
    super(message);
    this.name = 'StatePatchHaltError';
  }
}

export interface StatePatchChange {
  key: string;
  /** The value exactly as written in the bundle (plain JSON, wrappers such as `__fixed__` allowed). */
  value: JsonValue;
  comment: string;
}

export interface StatePatchBundle {
  patch_id: string;
  activation_height: number;
  governance_contract: string;
  bundle_hash: string;
  summary: string;
  uri: string;
  chain_id: string | null;
  changes: StatePatchChange[];
  file_path: string;
}

/** Python `json.dumps(v, sort_keys=True, separators=(",", ":"))` (ASCII-escaped), then SHA-256 hex. */
function hashJson(value: JsonValue): string {
  try {
    return sha256Hex(compactJson(value, { asciiOnly: true, sortKeys: true }));
  } catch (err) {
    throw new StatePatchError(`state patch values must be plain JSON without floats (write decimals as {"__fixed__":"…"}): ${(err as Error).message}`);
  }
}

function obj(entries: Array<[string, JsonValue]>): JsonValue {
  const out = Object.create(null) as Record<string, JsonValue>;
  for (const [k, v] of entries) out[k] = v;
  return out;
}

function sortedChanges(changes: readonly StatePatchChange[]): JsonValue[] {
  return [...changes]
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((c) => obj([['comment', c.comment], ['key', c.key], ['value', c.value]]));
}

/** `bundle_hash` over the canonical bundle payload. */
export function bundleHash(b: Omit<StatePatchBundle, 'bundle_hash' | 'file_path'> & { version?: number }): string {
  return hashJson(obj([
    ['activation_height', b.activation_height],
    ['chain_id', b.chain_id],
    ['changes', sortedChanges(b.changes)],
    ['governance_contract', b.governance_contract],
    ['patch_id', b.patch_id],
    ['summary', b.summary],
    ['uri', b.uri],
    ['version', b.version ?? STATE_PATCH_BUNDLE_VERSION],
  ]));
}

/**
 * Validates a parsed bundle file as the node does at load time. Parse the file with a
 * bigint-safe parser (core `parseJsonExact`) so large integers keep their digits.
 */
export function loadStatePatchBundle(json: unknown, filePath: string, options: { governanceContract?: string } = {}): StatePatchBundle {
  const fail = (what: string): never => { throw new StatePatchError(`${filePath} ${what}`); };
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return fail('is not a JSON object');
  const p = json as Record<string, unknown>;
  const version = typeof p['version'] === 'bigint' ? Number(p['version']) : p['version'];
  if (version !== STATE_PATCH_BUNDLE_VERSION) fail('has unsupported state patch bundle version');
  const patchId = p['patch_id'];
  if (typeof patchId !== 'string' || !PATCH_ID.test(patchId)) return fail('has invalid patch_id');
  const rawHeight = p['activation_height'];
  const height = typeof rawHeight === 'bigint' ? Number(rawHeight) : rawHeight;
  if (typeof height !== 'number' || !Number.isSafeInteger(height) || height <= 0) return fail('must set a positive activation_height');
  const governance = p['governance_contract'] ?? options.governanceContract ?? DEFAULT_GOVERNANCE_CONTRACT;
  if (typeof governance !== 'string' || governance === '') return fail('has invalid governance_contract');
  const chainId = p['chain_id'] ?? null;
  if (chainId !== null && (typeof chainId !== 'string' || chainId === '')) return fail('has invalid chain_id');
  const rawChanges = p['changes'];
  if (!Array.isArray(rawChanges) || rawChanges.length === 0) return fail('must define a non-empty changes list');
  const seen = new Set<string>();
  const changes: StatePatchChange[] = [];
  for (const raw of rawChanges) {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fail('contains a non-object patch change');
    const c = raw as Record<string, unknown>;
    const key = c['key'];
    if (typeof key !== 'string' || key === '') return fail('contains a patch change with no key');
    if (seen.has(key)) fail(`contains duplicate key ${pythonRepr(key)}`);
    if (key.endsWith('.__code__')) fail('cannot patch __code__ directly; use __source__');
    if (key.endsWith(`.${IR_KEY}`)) fail(`cannot patch ${IR_KEY} directly; use __source__`);
    seen.add(key);
    changes.push({ key, value: (c['value'] ?? null) as JsonValue, comment: typeof c['comment'] === 'string' ? c['comment'] : '' });
  }
  const summary = typeof p['summary'] === 'string' ? p['summary'] : '';
  const uri = typeof p['uri'] === 'string' ? p['uri'] : '';
  const base = { patch_id: patchId, activation_height: height, governance_contract: governance, summary, uri, chain_id: chainId as string | null, changes };
  return { ...base, bundle_hash: bundleHash(base), file_path: filePath };
}

/** `/state_patch_bundles`: the local inventory sorted by patch_id. */
export function statePatchBundleInventory(bundles: Iterable<StatePatchBundle>): Array<Record<string, unknown>> {
  return [...bundles]
    .sort((a, b) => (a.patch_id < b.patch_id ? -1 : a.patch_id > b.patch_id ? 1 : 0))
    .map((b) => ({
      patch_id: b.patch_id,
      activation_height: b.activation_height,
      governance_contract: b.governance_contract,
      bundle_hash: b.bundle_hash,
      summary: b.summary,
      uri: b.uri,
      chain_id: b.chain_id,
      change_count: b.changes.length,
      file_path: b.file_path,
    }));
}

export interface ScheduledPatchRecord {
  patch_id: string;
  proposal_id: bigint;
  bundle_hash: string;
  activation_height: number;
  governance_contract: string;
  summary: string;
  uri: string;
  emergency: boolean;
  status: 'approved' | 'applied';
}

/** Governance's schedule for `height`: approved (and, with `includeApplied`, applied) patches, sorted by id. */
export function scheduledPatchRecords(state: StateReader, height: number | bigint, governance = DEFAULT_GOVERNANCE_CONTRACT, includeApplied = true): ScheduledPatchRecord[] {
  const prefix = `${governance}.scheduled_patches:${height}:`;
  const records: ScheduledPatchRecord[] = [];
  for (const key of state.keys(prefix)) {
    const scheduled = state.get(key);
    if (scheduled === undefined || scheduled === null || scheduled === false || scheduled === '' || scheduled === 0n) continue;
    const id = key.slice(prefix.length);
    const field = (name: string): ChainValue | undefined => state.get(`${governance}.patches:${id}:${name}`);
    const status = field('status');
    if (status !== 'approved' && status !== 'applied') continue;
    if (status === 'applied' && !includeApplied) continue;
    const proposalId = field('proposal_id');
    const hash = field('bundle_hash');
    const activation = field('activation_height');
    if (typeof proposalId !== 'bigint') throw new StatePatchError(`missing proposal_id for governed state patch ${id}`);
    if (typeof hash !== 'string' || hash === '') throw new StatePatchError(`missing bundle_hash for governed state patch ${id}`);
    if (typeof activation !== 'bigint' || activation !== BigInt(height)) {
      throw new StatePatchError(`governed state patch ${id} has inconsistent activation height`);
    }
    const summary = field('summary');
    const uri = field('uri');
    const emergency = field('emergency');
    records.push({
      patch_id: id,
      proposal_id: proposalId,
      bundle_hash: hash,
      activation_height: Number(activation),
      governance_contract: governance,
      summary: typeof summary === 'string' ? summary : '',
      uri: typeof uri === 'string' ? uri : '',
      emergency: emergency !== undefined && emergency !== null && emergency !== false && emergency !== 0n && emergency !== '',
      status,
    });
  }
  return records.sort((a, b) => (a.patch_id < b.patch_id ? -1 : a.patch_id > b.patch_id ? 1 : 0));
}

/** `/scheduled_state_patches/<height>`: the schedule with applied ones, joined with the local inventory. */
export function scheduledStatePatches(state: StateReader, height: number | bigint, bundles: ReadonlyMap<string, StatePatchBundle>, governance = DEFAULT_GOVERNANCE_CONTRACT): Array<Record<string, unknown>> {
  return scheduledPatchRecords(state, height, governance, true).map((r) => {
    const local = bundles.get(r.patch_id);
    return { ...r, local_bundle_available: local !== undefined, local_file_path: local?.file_path ?? null };
  });
}

export interface PatchExecution {
  record: ScheduledPatchRecord;
  bundle: StatePatchBundle;
  /** Applied changes incl. derived IR, sorted by key (what the execution hash covers). */
  appliedChanges: StatePatchChange[];
  execution_hash: string;
}

/**
 * The IR persisted beside a patched `__source__`: the source compiled as a deployment would be.
 * A source the compiler refuses leaves no IR, so the contract stops executing (`requires
 * persisted __xian_ir_v1__`) instead of running stale code.
 */
function patchedIr(name: string, source: string): string | null {
  const compiled = compileContract(name, source);
  return compiled.ok ? compiled.artifact.vm_ir_json : null;
}

function appliedChangesOf(bundle: StatePatchBundle): StatePatchChange[] {
  const out: StatePatchChange[] = [];
  for (const change of bundle.changes) {
    out.push({ ...change });
    const parts = change.key.split('.');
    if (parts.length > 1 && parts[1] === '__source__' && typeof change.value === 'string') {
      out.push({ key: `${parts[0]}.${IR_KEY}`, value: patchedIr(parts[0]!, change.value), comment: `Persisted VM IR for ${change.comment}` });
    }
  }
  return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

function executions(state: StateReader, height: number | bigint, bundles: ReadonlyMap<string, StatePatchBundle>, chainId: string, governance: string, includeApplied: boolean): PatchExecution[] {
  return scheduledPatchRecords(state, height, governance, includeApplied).map((record) => {
    const bundle = bundles.get(record.patch_id);
    if (!bundle) throw new StatePatchHaltError(`missing local state patch bundle for approved patch ${record.patch_id}`);
    if (bundle.bundle_hash !== record.bundle_hash) {
      throw new StatePatchHaltError(`state patch bundle hash mismatch for ${record.patch_id}: local=${bundle.bundle_hash} governed=${record.bundle_hash}`);
    }
    if (bundle.activation_height !== record.activation_height) throw new StatePatchHaltError(`state patch activation height mismatch for ${record.patch_id}`);
    if (bundle.governance_contract !== record.governance_contract) throw new StatePatchHaltError(`state patch governance contract mismatch for ${record.patch_id}`);
    if (bundle.chain_id !== null && bundle.chain_id !== chainId) {
      throw new StatePatchHaltError(`state patch ${record.patch_id} targets chain_id ${pythonRepr(bundle.chain_id)}`);
    }
    const appliedChanges = appliedChangesOf(bundle);
    const execution_hash = hashJson(obj([
      ['activation_height', record.activation_height],
      ['bundle_hash', record.bundle_hash],
      ['changes', sortedChanges(appliedChanges)],
      ['emergency', record.emergency],
      ['governance_contract', record.governance_contract],
      ['patch_id', record.patch_id],
      ['proposal_id', record.proposal_id],
    ]));
    return { record, bundle, appliedChanges, execution_hash };
  });
}

/** The execution payload list (BDS `patches`, spool files) of these executions. */
function payloads(list: PatchExecution[]): Array<Record<string, unknown>> {
  return list.map((e) => ({
    patch_id: e.record.patch_id,
    proposal_id: e.record.proposal_id,
    bundle_hash: e.record.bundle_hash,
    execution_hash: e.execution_hash,
    activation_height: e.record.activation_height,
    governance_contract: e.record.governance_contract,
    summary: e.record.summary,
    uri: e.record.uri,
    emergency: e.record.emergency,
    changes: e.appliedChanges.map((c) => ({ key: c.key, value: c.value, comment: c.comment })),
  }));
}

function aggregate(list: PatchExecution[]): string | null {
  return list.length === 0 ? null : hashJson(list.map((e) => e.execution_hash));
}

export interface AppliedPatches {
  /** SHA-256 of the canonical list of execution hashes (BDS `state_patches.hash`), null when none. */
  patchHash: string | null;
  payloads: Array<Record<string, unknown>>;
  /** What to write, in order: the changes (wrappers decoded), derived IR, then the `applied` marks. */
  writes: Array<{ key: string; value: ChainValue | null }>;
}

export interface ApplyStatePatchesInput {
  /** State after the block's transactions and rewards. */
  state: StateReader;
  height: number | bigint;
  nanos: bigint;
  /** Lowercase block hash, or null. */
  blockHash: string | null;
  chainId: string;
  /** Local bundles by patch_id. */
  bundles: ReadonlyMap<string, StatePatchBundle>;
  governanceContract?: string;
}

/** Applies the approved, not yet applied patches scheduled for `height`. Throws StatePatchHaltError to halt. */
export function applyStatePatches(input: ApplyStatePatchesInput): AppliedPatches {
  const governance = input.governanceContract ?? DEFAULT_GOVERNANCE_CONTRACT;
  const list = executions(input.state, input.height, input.bundles, input.chainId, governance, false);
  const writes: AppliedPatches['writes'] = [];
  for (const e of list) {
    for (const change of e.bundle.changes) {
      const parts = change.key.split('.');
      if (parts.length > 1 && parts[1] === '__source__' && typeof change.value === 'string') {
        writes.push({ key: change.key, value: change.value });
        writes.push({ key: `${parts[0]}.${IR_KEY}`, value: patchedIr(parts[0]!, change.value) });
        continue;
      }
      writes.push({ key: change.key, value: decodeValue(change.value) });
    }
    const mark = (field: string, value: ChainValue | null): void => {
      writes.push({ key: `${governance}.patches:${e.record.patch_id}:${field}`, value });
    };
    mark('status', 'applied');
    mark('applied_block_height', BigInt(input.height));
    mark('applied_block_hash', input.blockHash);
    mark('applied_at_nanos', input.nanos);
    mark('execution_hash', e.execution_hash);
  }
  return { patchHash: aggregate(list), payloads: payloads(list), writes };
}

/** The patches applied at `height` (applied ones included), for BDS catch-up and reindex: hash and payloads. */
export function appliedStatePatches(state: StateReader, height: number | bigint, bundles: ReadonlyMap<string, StatePatchBundle>, chainId: string, governance = DEFAULT_GOVERNANCE_CONTRACT): Omit<AppliedPatches, 'writes'> {
  const list = executions(state, height, bundles, chainId, governance, true);
  return { patchHash: aggregate(list), payloads: payloads(list) };
}
