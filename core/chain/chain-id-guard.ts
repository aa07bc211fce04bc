import { ApiError } from '../errors.js';
import { nodeApiError } from '../tools/chain-schemas.js';
import type { ChainNode } from './node.js';

/**
 * CHAIN_ID goes into every signed payload and must equal the node's network id
 * (`/status` → `result.node_info.network`, spec §2 and §9.2). The guard reads the node's id once
 * and keeps it (a node does not change networks while running); `refresh()` forgets it, and a
 * submit that finds a mismatch refreshes once before refusing, in case the node was reset.
 *
 * Submitting tools call `assertMatches()` and refuse with a 409 naming both ids. Read tools
 * call `warnings()`, which never throws: a mismatch becomes a warning in the result, and an
 * unreachable node is left for the read itself to report.
 */
export interface ChainIdCheck {
  configured: string;
  node: string;
  matches: boolean;
}

const WARNING_TAIL = '; transactions would be refused by this node';

export class ChainIdGuard {
  private cached: Promise<string> | null = null;
  /** The cached id once it has arrived: read tools check it without awaiting. */
  private known: string | undefined;

  constructor(private readonly node: ChainNode, readonly configured: string) {}

  /** The node's network id, fetched once; a failed fetch is retried on the next call. */
  networkChainId(signal?: AbortSignal): Promise<string> {
    this.cached ??= this.node.status({ signal }).then(
      (status) => (this.known = status.node_info.network),
      (err: unknown) => {
        this.cached = null;
        throw err;
      },
    );
    return this.cached;
  }

  /** Forgets the cached id; the next check asks the node again. */
  refresh(): void {
    this.cached = null;
    this.known = undefined;
  }

  /** Seeds the cache from a `/status` the caller already fetched. */
  observe(network: string): void {
    this.cached = Promise.resolve(network);
    this.known = network;
  }

  async check(signal?: AbortSignal): Promise<ChainIdCheck> {
    const node = await this.networkChainId(signal);
    return { configured: this.configured, node, matches: node === this.configured };
  }

  /** Throws a 409 `chain_id_mismatch` when CHAIN_ID differs from the node's network (after one refresh). */
  async assertMatches(signal?: AbortSignal): Promise<void> {
    let result: ChainIdCheck;
    try {
      result = await this.check(signal);
      if (!result.matches) {
        this.refresh();
        result = await this.check(signal);
      }
    } catch (err) {
      throw nodeApiError(err, "cannot read the node's chain id");
    }
    if (!result.matches) {
      throw new ApiError(409, 'chain_id_mismatch', mismatchText(result) + '; nothing was signed or sent', {
        configured_chain_id: result.configured,
        node_chain_id: result.node,
      });
    }
  }

  /**
   * `[]` when the ids match or the node cannot be asked; one warning when they differ. Once
   * the node's id is known the answer is immediate (no promise): read tools call this on
   * every request.
   */
  warnings(signal?: AbortSignal): string[] | Promise<string[]> {
    if (this.known !== undefined) return this.known === this.configured ? [] : [mismatchText({ configured: this.configured, node: this.known, matches: false }) + WARNING_TAIL];
    return this.check(signal).then((result) => (result.matches ? [] : [mismatchText(result) + WARNING_TAIL]), () => []);
  }
}

export function mismatchText(check: ChainIdCheck): string {
  return `CHAIN_ID is "${check.configured}" but the node's network (status node_info.network) is "${check.node}"; set CHAIN_ID=${check.node} or point CHAIN_NODE_URL at the intended network`;
}

/** One guard per node and configured id, so every plugin shares the cached lookup. */
const guards = new WeakMap<ChainNode, Map<string, ChainIdGuard>>();

export function chainIdGuardFor(node: ChainNode, configured: string): ChainIdGuard {
  let byId = guards.get(node);
  if (!byId) guards.set(node, (byId = new Map()));
  let guard = byId.get(configured);
  if (!guard) byId.set(configured, (guard = new ChainIdGuard(node, configured)));
  return guard;
}
