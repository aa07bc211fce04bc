import { type ParsedQueryPath, QueryPathError } from 'chainhost/plugin';
import type { BlockRef } from '../reads/columns.js';
import type { TagKind } from '../reads/shielded-reads.js';

/**
 * Path-segment parameters of the BDS query paths (bds.md §6.1). chainhost is strict where
 * upstream silently falls back or clamps: a limit outside 0…1000, a negative offset or cursor, or
 * a non-integer is answered with an error naming the parameter, its value and the allowed range.
 */
export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

function intParam(query: ParsedQueryPath, name: string, fallback: number, min: number, max: number): number {
  const raw = query.params[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^-?[0-9]+$/.test(raw)) throw new QueryPathError(`${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(raw)}`);
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new QueryPathError(`${name} must be an integer from ${min} to ${max}, got ${raw}`);
  return n;
}

export function limitParam(query: ParsedQueryPath): number {
  return intParam(query, 'limit', DEFAULT_LIMIT, 0, MAX_LIMIT);
}

export function offsetParam(query: ParsedQueryPath): number {
  return intParam(query, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
}

/** `after_id=<cursor>`: undefined when absent (offset mode). */
export function afterIdParam(query: ParsedQueryPath): number | undefined {
  if (query.params.after_id === undefined || query.params.after_id === '') return undefined;
  return intParam(query, 'after_id', 0, 0, Number.MAX_SAFE_INTEGER);
}

export function afterNoteIndexParam(query: ParsedQueryPath): number {
  return intParam(query, 'after_note_index', 0, 0, Number.MAX_SAFE_INTEGER);
}

/** `kind=` of the shielded feeds, lower-cased; default `sync_hint`. */
export function kindParam(query: ParsedQueryPath): TagKind {
  const raw = (query.params.kind ?? 'sync_hint').toLowerCase();
  if (raw === '' ) return 'sync_hint';
  if (raw !== 'sync_hint' && raw !== 'discovery_tag') throw new QueryPathError(`kind must be sync_hint or discovery_tag, got ${JSON.stringify(query.params.kind)}`);
  return raw;
}

/** `include_zero=` : true for 1/true/yes (bds.md §6.3). */
export function flagParam(query: ParsedQueryPath, name: string): boolean {
  return ['1', 'true', 'yes'].includes((query.params[name] ?? '').toLowerCase());
}

/** The positional part at `index` (after the route); parameter segments do not count as positional. */
export function partParam(query: ParsedQueryPath, index: number, name: string): string {
  const positional = query.parts.filter((p) => !/^[A-Za-z_]+=/.test(p));
  const value = positional[index];
  if (value === undefined || value === '') throw new QueryPathError(`missing ${name}: /${query.route}/<${name}>…`);
  // PostgreSQL text cannot hold NUL: refused here, as the caller's mistake, before any SQL runs.
  if (value.includes('\u0000')) throw new QueryPathError(`${name} must not contain a NUL character`);
  return value;
}

export function heightParam(value: string, name = 'height'): number {
  if (!/^[0-9]+$/.test(value)) throw new QueryPathError(`${name} must be a non-negative integer, got ${JSON.stringify(value)}`);
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new QueryPathError(`${name} is out of range: ${value}`);
  return n;
}

/** A 64-character argument is a block hash, otherwise an integer height. */
export function blockRefParam(value: string): BlockRef {
  return value.length === 64 ? { hash: value } : { height: heightParam(value, 'block height or hash') };
}

/** `before=<height>:<tx_index>`: the keyset cursor of the sender/contract listings (a chainhost extension; offset stays the spec's way). */
export function beforeParam(query: ParsedQueryPath): { block_height: number; tx_index: number } | undefined {
  const raw = query.params.before;
  if (raw === undefined || raw === '') return undefined;
  const m = /^([0-9]{1,15}):([0-9]{1,9})$/.exec(raw);
  if (!m) throw new QueryPathError(`before must be <block_height>:<tx_index> of the last row seen, got ${JSON.stringify(raw)}`);
  return { block_height: Number(m[1]), tx_index: Number(m[2]) };
}

/** `before_id=<cursor>`: the id-keyset cursor of the newest-first event listings (the last id seen); undefined for the first page. */
export function beforeIdParam(query: ParsedQueryPath): number | undefined {
  if (query.params.before_id === undefined || query.params.before_id === '') return undefined;
  return intParam(query, 'before_id', 0, 1, Number.MAX_SAFE_INTEGER);
}

/** `events=<Name>[,<Name>…]`: event names to keep (all when absent). */
export function eventNamesParam(query: ParsedQueryPath): string[] | undefined {
  const raw = query.params.events;
  if (raw === undefined || raw === '') return undefined;
  const names = raw.split(',');
  if (names.length > 20 || names.some((n) => !/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(n))) {
    throw new QueryPathError(`events must be up to 20 comma-separated event names such as Swap,Mint, got ${JSON.stringify(raw.slice(0, 100))}`);
  }
  return names;
}

/** `match=<field>:<value>`: keep events whose indexed field equals the value (as a string or, for digits, a number). */
export function matchParam(query: ParsedQueryPath): { field: string; value: string } | undefined {
  const raw = query.params.match;
  if (raw === undefined || raw === '') return undefined;
  const m = /^([A-Za-z_][A-Za-z0-9_]{0,63}):(.{1,256})$/.exec(raw);
  if (!m) throw new QueryPathError(`match must be <indexed field>:<value> such as pair:1, got ${JSON.stringify(raw.slice(0, 100))}`);
  return { field: m[1]!, value: m[2]! };
}
