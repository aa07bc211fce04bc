import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson, compactJson, parseJsonExact, type JsonObject, type JsonValue } from '../../../core/chain/canonical-json.js';
import { sha256Hex } from '../../../core/chain/hashes.js';
import { decodeValue } from '../../../core/chain/value-codec.js';
import type { ChainValue } from '../../../core/chain/values.js';
import { buildContractIr } from '../engine/contract-ir.js';
import type { BlockEnv } from '../engine/types.js';
import type { StatePatchSource } from './devnet-node.js';
import type { BlockOverlay } from './state-reader.js';
import { decodeStateText, encodeStateText } from './state-reader.js';
import type { TextStateReader } from './state-store.js';

/**
 * Governed state patches (contracts.md §8): bundle files in `<home>/config/state-patches/*.json`,
 * their schedule in the governance contract's state (`<gov>.scheduled_patches:<h>:<id>`,
 * `<gov>.patches:<id>:<field>`), and their application at FinalizeBlock of the activation height,
 * after the transactions. An approved patch without a matching local bundle halts the chain.
 */
export interface PatchBundle {
  patch_id: string;
  activation_height: number;
  governance_contract: string;
  chain_id: string | null;
  summary: string;
  uri: string | null;
  changes: Array<{ key: string; value: JsonValue; comment: string }>;
  bundle_hash: string;
  file_path: string;
}

const PATCH_ID = /^[a-z0-9][a-z0-9_-]{2,127}$/;
const COUNTED = new Set(['approved', 'applied']);

export class StatePatches implements StatePatchSource {
  constructor(private readonly dir: string, private readonly chainId: string, private readonly state: TextStateReader) {}

  /** Valid bundles in the directory (invalid files are skipped), by patch id. */
  loadBundles(): Map<string, PatchBundle> {
    const out = new Map<string, PatchBundle>();
    if (!existsSync(this.dir)) return out;
    for (const name of readdirSync(this.dir).filter((n) => n.endsWith('.json')).sort()) {
      const file = join(this.dir, name);
      try {
        const b = parseBundle(parseJsonExact(readFileSync(file, 'utf8')), file);
        if (!out.has(b.patch_id)) out.set(b.patch_id, b);
      } catch {
        // Not a valid bundle: it cannot be applied, so it is not listed.
      }
    }
    return out;
  }

  bundles(): unknown[] {
    return [...this.loadBundles().values()].sort((a, b) => cmp(a.patch_id, b.patch_id)).map((b) => ({
      patch_id: b.patch_id, activation_height: b.activation_height, governance_contract: b.governance_contract,
      bundle_hash: b.bundle_hash, summary: b.summary, uri: b.uri, chain_id: b.chain_id, change_count: b.changes.length, file_path: b.file_path,
    }));
  }

  scheduled(height: number, state: TextStateReader = this.state): unknown[] {
    const bundles = this.loadBundles();
    return this.schedule(height, state, bundles).map((s) => {
      const local = bundles.get(s.patch_id);
      return {
        patch_id: s.patch_id, proposal_id: s.proposal_id, bundle_hash: s.bundle_hash, activation_height: s.activation_height,
        governance_contract: s.governance_contract, summary: s.summary, uri: s.uri, emergency: s.emergency, status: s.status,
        local_bundle_available: local !== undefined && local.bundle_hash === s.bundle_hash, local_file_path: local?.file_path ?? null,
      };
    });
  }

  apply(overlay: BlockOverlay, env: BlockEnv): unknown[] {
    const height = Number(env.height);
    const govs = this.governanceContracts(undefined);
    if (!govs.some((g) => overlay.keys(`${g}.scheduled_patches:${height}:`, undefined, 1).length > 0)) return [];
    const bundles = this.loadBundles();
    const applied: unknown[] = [];
    for (const s of this.schedule(height, overlay, bundles)) {
      if (s.status !== 'approved') continue;
      const b = bundles.get(s.patch_id);
      if (!b) throw new Error(`missing local state patch bundle for approved patch ${s.patch_id}`);
      if (b.bundle_hash !== s.bundle_hash) throw new Error(`state patch bundle hash mismatch for ${s.patch_id}: local=${b.bundle_hash} governed=${s.bundle_hash}`);
      if (b.activation_height !== height || b.governance_contract !== s.governance_contract || (b.chain_id !== null && b.chain_id !== this.chainId)) {
        throw new Error(`state patch bundle ${s.patch_id} does not match its schedule (height ${height}, governance ${s.governance_contract}, chain ${this.chainId})`);
      }
      const changes: Array<{ key: string; value: JsonValue; comment: string }> = [];
      for (const c of b.changes) {
        overlay.set(c.key, encodeStateText(decodeValue(c.value)));
        changes.push(c);
        const source = /^(.+)\.__source__$/.exec(c.key);
        if (source && typeof c.value === 'string') {
          const ir = buildContractIr(source[1]!, c.value);
          overlay.set(`${source[1]}.__xian_ir_v1__`, encodeStateText(ir));
          changes.push({ key: `${source[1]}.__xian_ir_v1__`, value: ir, comment: `derived from ${c.key}` });
        }
      }
      changes.sort((x, y) => cmp(x.key, y.key));
      const executionHash = sha256Hex(canonicalJson(obj({
        activation_height: height, bundle_hash: b.bundle_hash, changes: changes.map((c) => obj({ comment: c.comment, key: c.key, value: c.value })),
        emergency: s.emergency, governance_contract: s.governance_contract, patch_id: s.patch_id, proposal_id: s.proposal_id as JsonValue,
      })));
      const field = (f: string, v: ChainValue) => overlay.set(`${s.governance_contract}.patches:${s.patch_id}:${f}`, encodeStateText(v));
      field('status', 'applied');
      field('applied_block_height', BigInt(height));
      field('applied_block_hash', env.hash);
      field('applied_at_nanos', env.nanos);
      field('execution_hash', executionHash);
      applied.push({
        patch_id: s.patch_id, proposal_id: s.proposal_id, bundle_hash: b.bundle_hash, execution_hash: executionHash, activation_height: height,
        governance_contract: s.governance_contract, summary: b.summary, uri: b.uri, emergency: s.emergency, changes,
      });
    }
    return applied;
  }

  private governanceContracts(bundles: Map<string, PatchBundle> | undefined): string[] {
    const govs = new Set(['governance']);
    for (const b of (bundles ?? this.loadBundles()).values()) govs.add(b.governance_contract);
    return [...govs];
  }

  private schedule(height: number, state: TextStateReader, bundles: Map<string, PatchBundle>) {
    const out: Array<{ patch_id: string; governance_contract: string; status: string; proposal_id: unknown; bundle_hash: string; activation_height: number; summary: unknown; uri: unknown; emergency: boolean }> = [];
    const read = (key: string): ChainValue | undefined => {
      const t = state.get(key);
      return t === undefined ? undefined : decodeStateText(t);
    };
    for (const gov of this.governanceContracts(bundles)) {
      const prefix = `${gov}.scheduled_patches:${height}:`;
      for (const key of state.keys(prefix)) {
        const v = read(key);
        if (!v) continue;
        const id = key.slice(prefix.length);
        const f = (name: string) => read(`${gov}.patches:${id}:${name}`);
        const status = String(f('status') ?? '');
        if (!COUNTED.has(status)) continue;
        const plain = (x: ChainValue | undefined) => (x === undefined ? null : typeof x === 'bigint' ? Number(x) : x);
        out.push({
          patch_id: id, governance_contract: gov, status, proposal_id: plain(f('proposal_id')), bundle_hash: String(f('bundle_hash') ?? ''),
          activation_height: Number(f('activation_height') ?? height), summary: plain(f('summary')), uri: plain(f('uri')), emergency: Boolean(f('emergency')),
        });
      }
    }
    return out.sort((a, b) => cmp(a.patch_id, b.patch_id));
  }
}

/** Validates one bundle file and computes its `bundle_hash`. */
export function parseBundle(json: JsonValue, file: string): PatchBundle {
  if (!isObj(json) || json['version'] !== 1) throw new Error(`${file}: version must be 1`);
  const id = json['patch_id'];
  if (typeof id !== 'string' || !PATCH_ID.test(id)) throw new Error(`${file}: invalid patch_id`);
  const height = Number(json['activation_height']);
  if (!Number.isInteger(height) || height <= 0) throw new Error(`${file}: activation_height must be an integer > 0`);
  const changes = json['changes'];
  if (!Array.isArray(changes) || changes.length === 0) throw new Error(`${file}: changes must be a non-empty list`);
  const seen = new Set<string>();
  const parsed = changes.map((c) => {
    if (!isObj(c) || typeof c['key'] !== 'string' || !('value' in c)) throw new Error(`${file}: every change needs key and value`);
    const key = c['key'];
    if (seen.has(key)) throw new Error(`${file}: duplicate change key ${key}`);
    if (key.endsWith('.__code__') || key.endsWith('.__xian_ir_v1__')) throw new Error(`${file}: patch ${key.replace(/\.[^.]+$/, '.__source__')} instead of ${key}`);
    seen.add(key);
    return { key, value: c['value'] as JsonValue, comment: typeof c['comment'] === 'string' ? c['comment'] : '' };
  });
  const bundle = {
    activation_height: height, chain_id: typeof json['chain_id'] === 'string' ? json['chain_id'] : null,
    governance_contract: typeof json['governance_contract'] === 'string' ? json['governance_contract'] : 'governance',
    patch_id: id, summary: typeof json['summary'] === 'string' ? json['summary'] : '', uri: typeof json['uri'] === 'string' ? json['uri'] : null,
  };
  const hashed = obj({
    ...bundle,
    changes: [...parsed].sort((a, b) => cmp(a.key, b.key)).map((c) => obj({ comment: c.comment, key: c.key, value: c.value })),
    version: 1,
  });
  return { ...bundle, changes: parsed, bundle_hash: sha256Hex(compactJson(hashed, { asciiOnly: true, sortKeys: true })), file_path: file };
}

function isObj(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function obj(fields: Record<string, unknown>): JsonObject {
  return Object.assign(Object.create(null), fields) as JsonObject;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
