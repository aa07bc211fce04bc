import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type JsonValue, parseJsonExact } from 'chainhost/chain';
import {
  DEFAULT_GOVERNANCE_CONTRACT, StatePatchError, applyStatePatches, loadStatePatchBundle, scheduledStatePatches,
  statePatchBundleInventory, type StatePatchBundle,
} from '../engine/state-patches.js';
import type { BlockEnv } from '../engine/types.js';
import type { StatePatchSource } from './devnet-node.js';
import { DecodingStateReader, encodeStateText, type BlockOverlay } from './state-reader.js';
import type { TextStateReader } from './state-store.js';

/**
 * The node's side of governed state patches (contracts.md §8): it reads the bundle files in
 * `<home>/config/state-patches/*.json` and plugs the engine's rules (`../engine/state-patches.ts`:
 * validation, hashes, schedule, application, halting) into block production and the
 * `/state_patch_bundles` and `/scheduled_state_patches/<height>` queries.
 */
export class StatePatches implements StatePatchSource {
  constructor(private readonly dir: string, private readonly chainId: string, private readonly state: TextStateReader) {}

  bundles(): unknown[] {
    return statePatchBundleInventory(this.readBundles().values());
  }

  scheduled(height: number): unknown[] {
    return scheduledStatePatches(new DecodingStateReader(this.state), height, this.readBundles());
  }

  apply(overlay: BlockOverlay, env: BlockEnv): unknown[] {
    // Most blocks schedule nothing: skip reading the bundle directory for them.
    if (overlay.keys(`${DEFAULT_GOVERNANCE_CONTRACT}.scheduled_patches:${env.height}:`, undefined, 1).length === 0) return [];
    const applied = applyStatePatches({
      state: new DecodingStateReader(overlay), height: env.height, nanos: env.nanos, blockHash: env.hash,
      chainId: this.chainId, bundles: this.readBundles(),
    });
    for (const w of applied.writes) overlay.set(w.key, w.value === null ? null : encodeStateText(w.value));
    return applied.payloads.map((p) => plainJson(p as JsonValue));
  }

  /**
   * The bundle inventory by patch id. Read on every use, so a bundle dropped into a running
   * devnet counts without a restart. Like the upstream node, an invalid file or a duplicate
   * patch_id makes the whole inventory unusable (StatePatchError naming the file).
   */
  private readBundles(): Map<string, StatePatchBundle> {
    const out = new Map<string, StatePatchBundle>();
    if (!existsSync(this.dir)) return out;
    for (const name of readdirSync(this.dir).filter((n) => n.endsWith('.json')).sort()) {
      const file = resolve(this.dir, name);
      const bundle = loadStatePatchBundle(parseBundleFile(file), file);
      if (out.has(bundle.patch_id)) throw new StatePatchError(`duplicate patch_id '${bundle.patch_id}' in bundle inventory (${file})`);
      out.set(bundle.patch_id, bundle);
    }
    return out;
  }
}

function parseBundleFile(file: string): JsonValue {
  try {
    return parseJsonExact(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new StatePatchError(`${file} is not valid JSON: ${(err as Error).message}`);
  }
}

/**
 * The block log is plain JSON (JSON.stringify): bigints (proposal ids) become numbers, and an
 * integer beyond 2^53 in a patch value keeps its digits as a string.
 */
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

function plainJson(value: JsonValue): unknown {
  if (typeof value === 'bigint') return value >= MIN_SAFE && value <= MAX_SAFE ? Number(value) : value.toString();
  if (Array.isArray(value)) return value.map(plainJson);
  if (value !== null && typeof value === 'object') {
    const out = Object.create(null) as Record<string, unknown>;
    for (const [k, v] of Object.entries(value)) out[k] = plainJson(v);
    return out;
  }
  return value;
}
