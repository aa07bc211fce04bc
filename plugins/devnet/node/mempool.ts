/**
 * CometBFT's mempool as the devnet needs it: FIFO transactions that passed CheckTx, a cache of
 * recently seen tx hashes (a resubmitted tx is refused with `tx already exists in cache`, as
 * CometBFT does; invalid txs leave the cache so they can be fixed and resent), and the size
 * limit (`mempool is full`).
 */
export interface MempoolTx {
  raw: Buffer;
  /** Uppercase CometBFT hash. */
  hash: string;
  sha256: string;
  sender: string;
  nonce: number;
}

export class MempoolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MempoolError';
  }
}

const CACHE_SIZE = 10_000;

export class Mempool {
  private readonly txs = new Map<string, MempoolTx>();
  private readonly cache = new Set<string>();
  private bytes = 0;

  constructor(private readonly maxTxs: number, private readonly maxBytes = 1_073_741_824) {}

  /** Throws MempoolError when the tx was seen recently or the pool is full; otherwise marks it seen. */
  precheck(hash: string, size: number): void {
    if (this.cache.has(hash)) throw new MempoolError('tx already exists in cache');
    if (this.txs.size >= this.maxTxs || this.bytes + size > this.maxBytes) {
      throw new MempoolError(`mempool is full: number of txs ${this.txs.size} (max: ${this.maxTxs}), total txs bytes ${this.bytes} (max: ${this.maxBytes})`);
    }
    this.cache.add(hash);
    if (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.values().next().value as string);
  }

  /** CheckTx refused it: forget it so a corrected resend is not "already in cache". */
  forget(hash: string): void {
    this.cache.delete(hash);
  }

  add(tx: MempoolTx): void {
    this.txs.set(tx.hash, tx);
    this.bytes += tx.raw.length;
  }

  has(hash: string): boolean {
    return this.txs.has(hash);
  }

  /** Transactions in arrival order, up to `maxBytes` of raw tx bytes (at least one). */
  reap(maxBytes: number): MempoolTx[] {
    const out: MempoolTx[] = [];
    let total = 0;
    for (const tx of this.txs.values()) {
      if (out.length > 0 && total + tx.raw.length > maxBytes) break;
      out.push(tx);
      total += tx.raw.length;
    }
    return out;
  }

  remove(hash: string): MempoolTx | undefined {
    const tx = this.txs.get(hash);
    if (!tx) return undefined;
    this.txs.delete(hash);
    this.bytes -= tx.raw.length;
    return tx;
  }

  list(limit = Number.MAX_SAFE_INTEGER): MempoolTx[] {
    const out: MempoolTx[] = [];
    for (const tx of this.txs.values()) {
      if (out.length >= limit) break;
      out.push(tx);
    }
    return out;
  }

  get size(): number {
    return this.txs.size;
  }

  get totalBytes(): number {
    return this.bytes;
  }

  clear(): void {
    this.txs.clear();
    this.cache.clear();
    this.bytes = 0;
  }
}
