import './single-kernel.js';
/**
 * Two error families. BootError: the host cannot start (stable `code`, one-line message).
 * ApiError: a caller's request failed; every transport renders it as
 * `{"error":{"code","message","details"}}` with `status`, and MCP as `isError: true`.
 */
export type BootErrorCode =
  | 'unknown_plugin'
  | 'invalid_plugin'
  | 'missing_dependency'
  | 'dependency_cycle'
  | 'duplicate_plugin'
  | 'duplicate_tool'
  | 'duplicate_contribution'
  | 'missing_capability'
  | 'registry_frozen'
  | 'config_invalid'
  | 'unsafe_bind'
  | 'plugin_failed'
  | 'unknown_target'
  | 'invalid_contribution'
  | 'keystore';

/** Marks chainhost's errors so a copy of this module elsewhere (a plugin's own install) still recognises them. */
const BOOT_ERROR_BRAND = Symbol.for('chainhost.boot-error');
const API_ERROR_BRAND = Symbol.for('chainhost.api-error');

function isBranded(value: unknown, brand: symbol): boolean {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true;
}

export class BootError extends Error {
  /** Recognised by brand, not prototype: a plugin bundling its own copy of the API throws errors the host still knows. */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return this === BootError ? isBranded(value, BOOT_ERROR_BRAND) : Function.prototype[Symbol.hasInstance].call(this, value);
  }

  readonly [BOOT_ERROR_BRAND] = true;

  constructor(readonly code: BootErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BootError';
  }
}

export type ApiErrorCode =
  | 'invalid_arguments'
  | 'invalid_json'
  | 'invalid_output'
  | 'unauthorized'
  | 'forbidden'
  | 'unsafe_disabled'
  | 'not_found'
  | 'unknown_tool'
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'conflict'
  | 'rate_limited'
  | 'timeout'
  | 'node_error'
  | 'node_unavailable'
  | 'busy'
  | 'internal_error'
  | (string & {});

export interface ApiErrorBody {
  error: { code: string; message: string; details: Record<string, unknown> | null };
}

export class ApiError extends Error {
  /** Recognised by brand, not prototype (see BootError). */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return this === ApiError ? isBranded(value, API_ERROR_BRAND) : Function.prototype[Symbol.hasInstance].call(this, value);
  }

  readonly [API_ERROR_BRAND] = true;

  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly details: Record<string, unknown> | null = null,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  toBody(): ApiErrorBody {
    return { error: { code: this.code, message: this.message, details: this.details } };
  }

  static badRequest(message: string, details: Record<string, unknown> | null = null): ApiError {
    return new ApiError(400, 'invalid_arguments', message, details);
  }
  static notFound(message: string, details: Record<string, unknown> | null = null): ApiError {
    return new ApiError(404, 'not_found', message, details);
  }
  static conflict(message: string, details: Record<string, unknown> | null = null): ApiError {
    return new ApiError(409, 'conflict', message, details);
  }
  static badGateway(message: string, details: Record<string, unknown> | null = null): ApiError {
    return new ApiError(502, 'node_unavailable', message, details);
  }
  static timeout(message: string): ApiError {
    return new ApiError(504, 'timeout', message);
  }
  static busy(message: string, retryAfterSeconds: number): ApiError {
    return new ApiError(503, 'busy', message, { retry_after_seconds: retryAfterSeconds }, { 'Retry-After': String(retryAfterSeconds) });
  }
}

/** The code a status gets when the error that carried it names none. */
const CODE_OF_STATUS: Record<number, ApiErrorCode> = {
  400: 'invalid_arguments', 401: 'unauthorized', 403: 'forbidden', 404: 'not_found', 405: 'method_not_allowed',
  409: 'conflict', 413: 'payload_too_large', 415: 'unsupported_media_type', 429: 'rate_limited',
  502: 'node_unavailable', 503: 'busy', 504: 'timeout',
};

/**
 * An error any library threw with an HTTP status (`status` or `statusCode`, as koa's
 * http-errors and fastify's do) and optionally a snake_case `code`, read by duck typing
 * (fastify's error-status rule) so errors from other packages map without `instanceof`.
 * A 4xx keeps its message (it was meant for the caller); a 5xx of unknown origin does not.
 */
function fromStatusCarrier(err: unknown): ApiError | null {
  if (typeof err !== 'object' || err === null) return null;
  const e = err as { status?: unknown; statusCode?: unknown; code?: unknown; message?: unknown; details?: unknown; headers?: unknown };
  const status = Number.isInteger(e.status) ? (e.status as number) : Number.isInteger(e.statusCode) ? (e.statusCode as number) : null;
  if (status === null || status < 400 || status > 599) return null;
  const code = typeof e.code === 'string' && /^[a-z][a-z0-9_]{0,63}$/.test(e.code) ? e.code : CODE_OF_STATUS[status] ?? (status < 500 ? 'invalid_request' : 'internal_error');
  const details = typeof e.details === 'object' && e.details !== null && !Array.isArray(e.details) ? (e.details as Record<string, unknown>) : null;
  if (status >= 500) return new ApiError(status, code, 'internal error; see the server log');
  const message = typeof e.message === 'string' && e.message ? e.message : `request failed (${status})`;
  const headers = typeof e.headers === 'object' && e.headers !== null ? stringValues(e.headers as Record<string, unknown>) : {};
  return new ApiError(status, code, message, details, headers);
}

function stringValues(record: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
}

/** The thrown value as an ApiError when it is one (by brand) or carries an HTTP status; null for anything else. */
export function asApiError(err: unknown): ApiError | null {
  if (err instanceof ApiError) return err;
  return fromStatusCarrier(err);
}

/** Any thrown value as an ApiError; unknown errors become a 500 without leaking their text. */
export function toApiError(err: unknown): ApiError {
  return asApiError(err) ?? new ApiError(500, 'internal_error', 'internal error; see the server log');
}
