import { abciDecimal, type ChainDecimal, type ChainNode, type DecodedAbciQuery, QueryPath, readAbciValue } from 'chainhost/chain';
import { ApiError } from 'chainhost/plugin';

/**
 * Consistent reads of committed state through `abci_query /get/<key>` (abci-query.md §4): the
 * first read answers at the latest height H and every later read of the snapshot asks for
 * exactly H. When a block commits in between, the node refuses H and the whole snapshot is
 * re-read (`readConsistently`), so a pair's two reserves never come from different blocks.
 * Nodes that ignore `height` (upstream answers height 0) simply read current state.
 */

const MOVED = /^Unsupported query height/;

export class SnapshotMoved extends Error {
  constructor() {
    super('a block committed during the read; retrying at the new height');
    this.name = 'SnapshotMoved';
  }
}

export class StateSnapshot {
  private pinned: string | null = null;
  private readonly cache = new Map<string, Promise<DecodedAbciQuery>>();

  constructor(private readonly node: ChainNode, private readonly signal?: AbortSignal) {}

  /** The committed height the snapshot reads at ("0" before the first read or on nodes that do not report it). */
  get height(): string {
    return this.pinned ?? '0';
  }

  /** Any query path, pinned to the snapshot height. */
  async query(path: string): Promise<DecodedAbciQuery> {
    let pending = this.cache.get(path);
    if (!pending) {
      pending = this.fetch(path);
      this.cache.set(path, pending);
      pending.catch(() => this.cache.delete(path));
    }
    return pending;
  }

  private async fetch(path: string): Promise<DecodedAbciQuery> {
    const height = this.pinned && this.pinned !== '0' ? this.pinned : 0;
    let answer: DecodedAbciQuery;
    try {
      answer = await this.node.query(path, { height, signal: this.signal });
    } catch (err) {
      throw nodeError(err);
    }
    if (answer.code !== 0 && MOVED.test(answer.log)) throw new SnapshotMoved();
    if (this.pinned === null) this.pinned = answer.height;
    // Parallel first reads all ask for "latest"; any answer from another block spoils the snapshot.
    else if (answer.height !== this.pinned && answer.height !== '0') throw new SnapshotMoved();
    return answer;
  }

  async get(key: string): Promise<DecodedAbciQuery> {
    const answer = await this.query(QueryPath.get(key));
    if (answer.code !== 0) throw new ApiError(502, 'node_error', `the node refused to read state key ${key}: ${answer.log || 'no reason given'}`, { key });
    return answer;
  }

  async decimal(key: string): Promise<ChainDecimal | null> {
    return abciDecimal(await this.get(key));
  }

  async int(key: string): Promise<number | null> {
    const v = readAbciValue(await this.get(key));
    if (v.type === 'none') return null;
    if (v.type === 'int') return Number(v.value);
    if (v.type === 'decimal' && v.value.isInteger()) return Number(v.value.toBigInt());
    throw new ApiError(502, 'node_error', `state key ${key} holds ${v.type}, expected an integer`, { key });
  }

  async string(key: string): Promise<string | null> {
    const v = readAbciValue(await this.get(key));
    if (v.type === 'none') return null;
    if (v.type === 'str') return v.value;
    if (v.type === 'unknown') return v.value;
    return null;
  }

  /** Python truthiness of the stored value (missing → false). */
  async truthy(key: string): Promise<boolean> {
    const v = readAbciValue(await this.get(key));
    switch (v.type) {
      case 'none': return false;
      case 'bool': return v.value;
      case 'int': return v.value !== 0n;
      case 'decimal': return !v.value.isZero();
      case 'str': return v.value.length > 0;
      case 'dict': return Object.keys(v.value).length > 0;
      case 'list': return v.value.length > 0;
      default: return v.value.length > 0;
    }
  }

  /** The raw value text, for fields shown as they are (datetimes). */
  async text(key: string): Promise<string | null> {
    const answer = await this.get(key);
    return answer.value?.text ?? null;
  }
}

/** Runs `read` against a fresh snapshot, again from scratch when a block lands mid-read (at most 5 times). */
export async function readConsistently<T>(node: ChainNode, read: (s: StateSnapshot) => Promise<T>, signal?: AbortSignal): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await read(new StateSnapshot(node, signal));
    } catch (err) {
      if (!(err instanceof SnapshotMoved) || attempt >= 4) {
        if (err instanceof SnapshotMoved) throw new ApiError(503, 'busy', 'blocks are committing faster than the DEX state can be read consistently; retry', { retry_after_seconds: 1 });
        throw err;
      }
    }
  }
}

/** Runs `fn` over `items` with at most `limit` in flight, keeping order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}

export function nodeError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  const name = err instanceof Error ? err.name : '';
  const message = err instanceof Error ? err.message : String(err);
  if (name === 'NodeUnavailableError') return new ApiError(502, 'node_unavailable', message);
  if (name === 'AbortError' || name === 'TimeoutError') return ApiError.timeout(message);
  return new ApiError(502, 'node_error', `the node answered with an error: ${message}`);
}
