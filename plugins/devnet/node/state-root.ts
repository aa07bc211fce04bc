import { createHash } from 'node:crypto';

/**
 * The devnet's app hash: a commitment to the consensus state (every key not starting with `__`,
 * plus the nonce keys `__n.<addr>:`, as contracts.md §9 scopes it). Upstream builds a hash
 * treap; the devnet joins no real network, so it uses an incremental multiset hash instead —
 * the sum mod 2^256 of one SHA-256 leaf per (key, runtime-encoded value) — which costs two
 * hashes per written key rather than a walk over the whole state, yet still changes whenever
 * any consensus value changes. It is deterministic and restart-stable, not upstream-identical.
 */
const MOD = 1n << 256n;
const LEAF = Buffer.from('chainhost-devnet-state-v1:leaf:');
const ROOT = 'chainhost-devnet-state-v1:root:';

export function isConsensusKey(key: string): boolean {
  return !key.startsWith('__') || key.startsWith('__n.');
}

export class StateRoot {
  private sum: bigint;

  constructor(sum = 0n) {
    this.sum = sum;
  }

  /** Accounts for `key` changing from `before` to `after` (undefined = absent). */
  update(key: string, before: string | undefined, after: string | undefined): void {
    if (before === after || !isConsensusKey(key)) return;
    if (before !== undefined) this.sum = (this.sum - leaf(key, before) + MOD) % MOD;
    if (after !== undefined) this.sum = (this.sum + leaf(key, after)) % MOD;
  }

  /** The 32-byte app hash. */
  hash(): Buffer {
    return createHash('sha256').update(ROOT).update(this.sum.toString(16).padStart(64, '0'), 'hex').digest();
  }

  get accumulator(): bigint {
    return this.sum;
  }
}

function leaf(key: string, value: string): bigint {
  const k = Buffer.from(key, 'utf8');
  const v = Buffer.from(value, 'utf8');
  const len = Buffer.allocUnsafe(16);
  len.writeBigUInt64BE(BigInt(k.length), 0);
  len.writeBigUInt64BE(BigInt(v.length), 8);
  return BigInt('0x' + createHash('sha256').update(LEAF).update(len).update(k).update(v).digest('hex'));
}
