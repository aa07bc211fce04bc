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
  | 'plugin_failed';

export class BootError extends Error {
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

/** Any thrown value as an ApiError; unknown errors become a 500 without leaking their text. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  return new ApiError(500, 'internal_error', 'internal error; see the server log');
}
