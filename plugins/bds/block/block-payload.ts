import { blockTimeOf as coreBlockTimeOf, isoFromNanos, type JsonObject, type JsonValue, parseJsonExact } from 'chainhost/chain';
import { jsonText } from './json-text.js';

/**
 * One finalized block as the follower fetched it: what the spool file holds and what the
 * writer persists (bds.md §4.1, plus the fields chainhost needs). `nanos` is a decimal string
 * (block times in ns exceed 2^53); hashes are uppercase; `tx_result.hash` is the CometBFT hash.
 */
export const BLOCK_PAYLOAD_VERSION = 1;

export interface BlockPayloadTx {
  /** Position in the block, counting every tx CometBFT carried (rejected ones included). */
  tx_index: number;
  /** The signed transaction `{metadata, payload}` without `b_meta`. */
  envelope: JsonValue;
  payload: JsonValue;
  /** The execution output with `hash` replaced by the uppercase CometBFT hash. */
  tx_result: JsonObject;
}

export interface BlockPayload {
  version: 1;
  block_meta: { chain_id: string; hash: string; height: number; nanos: string };
  /** ISO-8601, `+00:00`. */
  block_time: string;
  app_hash: string;
  /** Uppercase hash of the previous block (header `last_block_id.hash`); lets the writer refuse a block of another chain or fork. */
  parent_hash?: string | null;
  /** Transactions CometBFT carried (executed or rejected); the state-patch pseudo-tx index. */
  block_tx_count: number;
  transactions: BlockPayloadTx[];
  state_patches: JsonValue[];
  state_patch_hash: string | null;
  /** Height 0 only: the application genesis state entries. */
  genesis?: Array<{ key: string; value: JsonValue }>;
}

export class BlockPayloadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BlockPayloadError';
  }
}

export function serializePayload(payload: BlockPayload): string {
  return jsonText(payload);
}

export function parsePayload(text: string, source = 'block payload'): BlockPayload {
  let value: JsonValue;
  try {
    value = /\d{16,}/.test(text) ? parseJsonExact(text) : (JSON.parse(text) as JsonValue);
  } catch (err) {
    throw new BlockPayloadError(`${source} is not valid JSON: ${(err as Error).message}`);
  }
  return checkPayload(value, source);
}

export function checkPayload(value: unknown, source = 'block payload'): BlockPayload {
  const fail = (what: string): never => {
    throw new BlockPayloadError(`${source}: ${what}`);
  };
  if (!isObject(value)) fail('not an object');
  const p = value as Record<string, unknown>;
  if (p.version !== BLOCK_PAYLOAD_VERSION) fail(`unsupported version ${JSON.stringify(p.version)} (expected ${BLOCK_PAYLOAD_VERSION})`);
  const meta = p.block_meta as Record<string, unknown> | undefined;
  if (!isObject(meta)) fail('block_meta missing');
  if (typeof meta!.height !== 'number' || !Number.isSafeInteger(meta!.height) || (meta!.height as number) < 0) fail('block_meta.height must be a non-negative integer');
  if (typeof meta!.hash !== 'string' || !meta!.hash) fail('block_meta.hash missing');
  if (typeof meta!.nanos !== 'string' || !/^[0-9]+$/.test(meta!.nanos as string)) fail('block_meta.nanos must be a decimal string');
  if (typeof p.app_hash !== 'string') fail('app_hash missing');
  if (typeof p.block_time !== 'string') fail('block_time missing');
  if (!Array.isArray(p.transactions)) fail('transactions must be a list');
  if (!Array.isArray(p.state_patches)) fail('state_patches must be a list');
  if (typeof p.block_tx_count !== 'number') fail('block_tx_count missing');
  return value as unknown as BlockPayload;
}

export function payloadHeight(payload: BlockPayload): number {
  return payload.block_meta.height;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export { isoFromNanos };

/** core's blockTimeOf, its refusal as a BlockPayloadError (a payload the follower cannot use). */
export function blockTimeOf(rfc3339: string): { nanos: bigint; iso: string } {
  try {
    return coreBlockTimeOf(rfc3339);
  } catch (err) {
    throw new BlockPayloadError(err instanceof Error ? err.message : String(err));
  }
}
