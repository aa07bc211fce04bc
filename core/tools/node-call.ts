import { AbciQueryError, AbciValueError } from '../chain/abci-value.js';
import { NodeUnavailableError, RpcError } from '../chain/rpc/chain-rpc.js';
import { ApiError } from '../errors.js';

/**
 * A failure talking to the node as the ApiError a tool throws: unreachable → 502
 * `node_unavailable`; a JSON-RPC or query error → 502 `node_error` with the node's text;
 * an ApiError passes through; anything else is rethrown (a bug, reported as 500).
 */
export function nodeApiError(err: unknown, what: string): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof NodeUnavailableError) {
    return new ApiError(502, 'node_unavailable', `${what}: ${err.message}; check CHAIN_NODE_URL and that the node is running`, { url: err.url, retryable: true });
  }
  if (err instanceof RpcError) return new ApiError(502, 'node_error', `${what}: the node answered with an error: ${err.message}`, { rpc_code: err.code });
  if (err instanceof AbciQueryError) return new ApiError(502, 'node_error', `${what}: ${err.message}`, { path: err.path, code: err.code });
  if (err instanceof AbciValueError) return new ApiError(502, 'node_error', `${what}: the node answered a value this tool cannot read: ${err.message}`);
  if (err instanceof Error && err.name === 'AbortError') return ApiError.timeout(`${what}: aborted`);
  throw err;
}

/** Runs a node call, turning its failures into ApiErrors (see nodeApiError). */
export async function nodeCall<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw nodeApiError(err, what);
  }
}
