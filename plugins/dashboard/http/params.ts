import { ApiError } from 'chainhost/plugin';

/**
 * Parameter checks for the dashboard routes. Unlike upstream (which silently falls back to
 * defaults and interpolates path parameters unchecked into ABCI paths), a bad value is a 400
 * that names the parameter, the value and what is expected. Path parameters that end up as
 * ABCI path segments must never contain `/`, which would add segments.
 */
type Query = Record<string, string | string[] | undefined>;

function single(query: Query, name: string): string | undefined {
  const raw = query[name];
  if (Array.isArray(raw)) throw ApiError.badRequest(`query parameter ${name} is given ${raw.length} times; give it once`, { parameter: name });
  return raw === undefined || raw === '' ? undefined : raw;
}

function shown(value: string): string {
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
}

/** An integer query parameter in `[min, max]`; missing → `fallback`. */
export function intParam(query: Query, name: string, fallback: number, min: number, max: number): number {
  const raw = single(query, name);
  if (raw === undefined) return fallback;
  if (!/^-?\d{1,16}$/.test(raw.trim())) {
    throw ApiError.badRequest(`query parameter ${name} must be an integer from ${min} to ${max}, got ${shown(raw)}`, { parameter: name, value: raw, min, max });
  }
  const n = Number(raw.trim());
  if (n < min || n > max) {
    throw ApiError.badRequest(`query parameter ${name} must be from ${min} to ${max}, got ${n}${name === 'limit' ? '; page with offset instead' : ''}`, { parameter: name, value: n, min, max });
  }
  return n;
}

export function optionalIntParam(query: Query, name: string, min: number, max: number): number | undefined {
  return single(query, name) === undefined ? undefined : intParam(query, name, 0, min, max);
}

/** `limit` and `offset` of the list routes. */
export function pageParams(query: Query, defaultLimit: number, maxLimit: number): { limit: number; offset: number } {
  return {
    limit: intParam(query, 'limit', Math.min(defaultLimit, maxLimit), 0, maxLimit),
    offset: intParam(query, 'offset', 0, 0, 1_000_000_000),
  };
}

/** One of a fixed set of words (upstream interpolated `sort`/`order` unchecked). */
export function choiceParam<T extends string>(query: Query, name: string, allowed: readonly T[], fallback: T): T {
  const raw = single(query, name);
  if (raw === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw ApiError.badRequest(`query parameter ${name} must be one of ${allowed.join(', ')}, got ${shown(raw)}`, { parameter: name, value: raw, allowed });
  }
  return raw as T;
}

export function stringParam(query: Query, name: string): string | undefined {
  return single(query, name);
}

/** A block height path parameter: a positive integer. */
export function heightParam(raw: string, name = 'height'): number {
  if (!/^[1-9]\d{0,15}$/.test(raw) || !Number.isSafeInteger(Number(raw))) {
    throw ApiError.badRequest(`${name} must be a positive block height (1, 2, …), got ${shown(raw)}`, { parameter: name, value: raw });
  }
  return Number(raw);
}

/** A CometBFT tx hash: 64 hex digits, `0x` optional, any case → uppercase. */
export function txHashParam(raw: string, name = 'hash'): string {
  const hex = raw.trim().replace(/^0x/i, '');
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) {
    throw ApiError.badRequest(`${name} must be a transaction hash of 64 hex digits (optionally 0x-prefixed), got ${shown(raw)}`, { parameter: name, value: raw });
  }
  return hex.toUpperCase();
}

/** A contract name as the chain allows it (`currency`, `con_pairs`). */
export function contractNameParam(raw: string, name = 'name'): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,254}$/.test(raw)) {
    throw ApiError.badRequest(`${name} must be a contract name (letters, digits and _, not starting with a digit), got ${shown(raw)}`, { parameter: name, value: raw });
  }
  return raw;
}

/** An account address (64 hex for Ed25519 keys) or another account-like identifier; never `/`. */
export function addressParam(raw: string, name = 'address'): string {
  if (!/^[A-Za-z0-9_.:-]{1,256}$/.test(raw)) {
    throw ApiError.badRequest(`${name} must be an address (64 hex digits, or a contract or account name), got ${shown(raw)}`, { parameter: name, value: raw });
  }
  return raw;
}

/** A positive integer id in a path (a DEX pair id). */
export function idParam(raw: string, name: string, what: string): number {
  if (!/^[1-9]\d{0,14}$/.test(raw)) {
    throw ApiError.badRequest(`${name} must be a positive integer ${what} (1, 2, …), got ${shown(raw)}`, { parameter: name, value: raw });
  }
  return Number(raw);
}
