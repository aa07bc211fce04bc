import type { JsonValue } from 'chainhost/chain';
import { ApiError, toolJson } from 'chainhost/plugin';
import { indexedRead, type ReadDeps } from '../chain-reads.js';

/**
 * The indexed-read tools' one way to the block index: a BDS query path (bds.md §6), answered by
 * this host's own bds plugin when it is loaded, else by the node's `abci_query` — any BDS-enabled
 * node, chainhost's or a real one. No database connection and no writer: the `bds` plugin keeps
 * those.
 */
export class BdsReader {
  constructor(private readonly deps: ReadDeps) {}

  /**
   * The JSON value of one BDS path (null when the path answers no value). A node without BDS
   * ("Unknown query path") is a 503 `bds_unavailable` that says so plainly; any other refusal
   * carries the node's reason (which never holds SQL).
   */
  async read(path: string, what: string, signal?: AbortSignal): Promise<JsonValue> {
    const answer = await this.tryRead(path, what, signal);
    if ('noBds' in answer) throw noBds(what, answer.noBds);
    return answer.json;
  }

  /**
   * The BDS path's value, or — on a node without BDS — what `fallback` answers in its place
   * (upstream's order, mcp.md §4.6). The fallback is told which read asks and what the node said,
   * so its own failure can name both.
   */
  async readOr(path: string, what: string, signal: AbortSignal | undefined, fallback: (ctx: FallbackContext) => Promise<JsonValue>): Promise<JsonValue> {
    const answer = await this.tryRead(path, what, signal);
    return 'json' in answer ? answer.json : fallback({ what, noBdsReason: answer.noBds, signal });
  }

  /** As read, but a node without BDS is `{ noBds: reason }` instead of an error (a fallback may answer). */
  async tryRead(path: string, what: string, signal?: AbortSignal): Promise<{ json: JsonValue } | { noBds: string }> {
    const answer = await indexedRead(this.deps, path, signal);
    if (answer.available) return { json: toolJson(answer.json) };
    const log = answer.reason ?? '';
    if (/^Unknown query path/i.test(log)) return { noBds: log };
    throw new ApiError(503, 'bds_unavailable', `${what}: the block index could not answer ${path.split('/')[1] ? `/${path.split('/')[1]}` : path}: ${log || 'no reason given'}`, {
      retryable: true,
    });
  }
}

/** Which read asks a fallback, and what the node said, so a failing fallback can name both. */
export interface FallbackContext {
  what: string;
  noBdsReason: string;
  signal?: AbortSignal;
}

export function noBds(what: string, reason: string): ApiError {
  return new ApiError(503, 'bds_unavailable',
    `${what} needs the BDS block index, and the node has no BDS (it answers "${reason}"). Point CHAIN_NODE_URL at a BDS-enabled node (chain-devnet --bds, or a host with the bds plugin)`,
    { requires: 'bds', retryable: false });
}
