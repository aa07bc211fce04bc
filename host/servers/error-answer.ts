import { ApiError, toApiError } from '../../core/errors.js';

/**
 * Any failure as the ApiError that answers it: ApiErrors as they are, koa/http-errors thrown
 * by middleware (e.g. a 413 from a body parser) with their 4xx status, anything else a 500.
 */
export function asApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const status = (err as { status?: unknown; expose?: unknown })?.status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return new ApiError(status, status === 413 ? 'payload_too_large' : 'invalid_request', (err as Error).message);
  }
  return toApiError(err);
}
