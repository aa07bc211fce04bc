import type { Knex } from 'knex';
import { z } from 'zod';
import { ApiError } from '../../../core/errors.js';
import { intOut, toolJson } from '../../../core/tools/chain-schemas.js';
import type { BlockRef, Row } from '../reads/columns.js';

/**
 * What the indexed-read tools share: the database they read, argument schemas with the
 * reference's names and BDS limits (mcp.md §4.6-4.7), and row mappers that keep integers exact
 * (numbers when safe, digit strings beyond 2^53) and decimals as strings.
 */
export interface BdsToolDeps {
  knex(): Knex;
  status(): Promise<Record<string, unknown>>;
}

export const bdsLimit = z.number().int().min(0).max(1000).default(100).describe('page size, 0 to 1000 (default 100)');
export const bdsOffset = z.number().int().min(0).default(0).describe('rows to skip (default 0)');
export const afterIdArg = z.number().int().min(0).optional().describe('resume after this id (restart-safe cursor; overrides offset)');
export const heightArg = z.number().int().min(0).describe('block height (0 is the genesis pseudo-block)');
export const blockRefArg = z
  .union([z.number().int().min(0), z.string().regex(/^([0-9]+|[0-9a-fA-F]{64})$/, 'must be a block height or a 64-hex block hash')])
  .describe('block height (integer) or 64-hex block hash');
export const tagKindArg = z.enum(['sync_hint', 'discovery_tag']).default('sync_hint').describe('tag kind: sync_hint (per wallet) or discovery_tag (per output)');
export const textArg = (what: string) => z.string().min(1, `${what} must not be empty`).max(1024).refine((v) => !v.includes('/'), `${what} must not contain "/"`);

export function blockRefOf(value: number | string): BlockRef {
  if (typeof value === 'string' && value.length === 64) return { hash: value };
  return { height: Number(value) };
}

/** A row as tool output: bigints → numbers or digit strings, JSON columns as values. */
export function out(row: Row): Record<string, unknown> {
  return toolJson(row) as Record<string, unknown>;
}

/** `created_at` is `created` in the SDK models (mcp.md §4.6). */
export function withCreated(row: Row): Record<string, unknown> {
  const { created_at, ...rest } = out(row);
  return { ...rest, created: created_at ?? null };
}

export async function bdsRead<T>(what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw new ApiError(503, 'bds_unavailable', `${what}: the BDS index could not be read (${(err as Error).message})`, { retryable: true });
  }
}

export const blockOut = z.object({
  height: intOut, block_hash: z.string(), block_time: intOut, block_time_iso: z.string(), tx_count: intOut, app_hash: z.string(), created_at: z.string(),
});

export const txOut = z.object({
  tx_hash: z.string(), block_height: intOut, block_hash: z.string(), tx_index: intOut, sender: z.string(), nonce: intOut,
  contract: z.string(), function: z.string(), success: z.boolean(), status_code: intOut, chi_used: intOut,
  result: z.unknown(), created: z.string().nullable(),
});

export const eventOut = z.object({
  id: intOut, tx_hash: z.string(), block_height: intOut, tx_index: intOut, event_index: intOut, contract: z.string(), event: z.string(),
  signer: z.string(), caller: z.string(), data_indexed: z.unknown(), data: z.unknown(), created: z.string().nullable(),
});

export const stateEntryOut = z.object({
  key: z.string(), value: z.unknown(), tx_hash: z.string().nullable().optional(), block_height: intOut.optional(), tx_index: intOut.optional(),
  write_index: intOut.optional(), origin_type: z.string().optional(), created: z.string().nullable().optional(),
});

export function txItem(row: Row): z.input<typeof txOut> {
  const r = withCreated(row);
  return {
    tx_hash: r.tx_hash as string, block_height: r.block_height as number, block_hash: r.block_hash as string, tx_index: r.tx_index as number,
    sender: r.sender as string, nonce: r.nonce as number, contract: r.contract as string, function: r.function as string,
    success: r.success as boolean, status_code: r.status_code as number, chi_used: r.chi_used as number, result: r.result, created: r.created as string | null,
  };
}
