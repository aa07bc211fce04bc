import { NodeUnavailableError, RpcError } from 'chainhost/chain';
import { ApiError } from 'chainhost/plugin';

/**
 * Maps a failed node call to the error the dashboard answers. Upstream passed CometBFT's
 * JSON-RPC error envelope through with HTTP 200 and turned timeouts into an empty 500; here an
 * unknown block or tx is a 404, a refused parameter a 400, an unreachable node a 502, a node
 * that does not answer in time a 504 — each with the node's own words in the message.
 */
export function nodeError(err: unknown, what: string): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof NodeUnavailableError && /\bwithin \d+ ?ms\b/.test(err.message)) {
    return new ApiError(504, 'timeout', `the node did not answer ${what} in time: ${err.message}`, { node: err.url });
  }
  if (err instanceof NodeUnavailableError) {
    return new ApiError(502, 'node_unavailable', `cannot read ${what}: ${err.message}`, { node: err.url });
  }
  if (isTimeout(err)) {
    return new ApiError(504, 'timeout', `the node did not answer ${what} in time; retry later or ask for less`);
  }
  if (err instanceof RpcError) {
    const text = `${err.data ?? ''} ${err.message}`;
    const details = { rpc_code: err.code, rpc_message: err.message, rpc_data: err.data ?? null };
    if (/not found|is not available, lowest height is|must be less than or equal to the current blockchain height|could not find|no such/i.test(text)) {
      return new ApiError(404, 'not_found', `${what} not found: ${err.data ?? err.message}`, details);
    }
    if (/must be|invalid|cannot parse|error parsing|unmarshal|greater than|out of range/i.test(text)) {
      return new ApiError(400, 'invalid_arguments', `the node refused the request for ${what}: ${err.data ?? err.message}`, details);
    }
    return new ApiError(502, 'node_error', `the node failed to answer ${what}: ${err.message}`, details);
  }
  // Parameters are checked before a call is made, so anything else is a bug: a logged 500.
  throw err;
}

/** Runs one node read; failures become dashboard errors (see `nodeError`). */
export async function readNode<T>(what: string, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    throw nodeError(err, what);
  }
}

export function isTimeout(err: unknown): boolean {
  return err instanceof Error && (err.name === 'TimeoutError' || (err as { code?: unknown }).code === 'ETIMEDOUT');
}
