/**
 * CheckTx's node-local nonce reservations (transactions.md §6.3, §8): per sender, nonce →
 * SHA-256 of the raw tx, each expiring after a TTL, at most `maxPerSender`, pruned once the
 * committed nonce passes them. Consensus ignores them — blocks check nonces from committed state.
 */
export class NonceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NonceError';
  }
}

interface Reservation {
  txSha256: string;
  expiresAt: number;
}

export class NonceReservations {
  private readonly bySender = new Map<string, Map<number, Reservation>>();

  constructor(
    private readonly maxPerSender: number,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The pending-aware next nonce: (highest contiguous reservation above the committed nonce,
   * else the committed nonce) + 1; a brand-new account (committed undefined) starts at 0.
   */
  nextNonce(sender: string, committed: number | undefined): number {
    const reserved = this.live(sender, committed);
    let next = committed === undefined ? 0 : committed + 1;
    while (reserved?.has(next)) next++;
    return next;
  }

  /**
   * Reserves `nonce` for the tx, or throws with the node's message. The identical tx (same
   * SHA-256) re-checked for the nonce it already holds is accepted idempotently.
   */
  reserve(sender: string, nonce: number, committed: number | undefined, txSha256: string, options: { dryRun?: boolean } = {}): void {
    const reserved = this.live(sender, committed);
    const held = reserved?.get(nonce);
    if (held && held.txSha256 === txSha256) {
      if (!options.dryRun) held.expiresAt = this.now() + this.ttlMs;
      return;
    }
    const expected = this.nextNonce(sender, committed);
    if (nonce !== expected) throw new NonceError(`Transaction nonce is invalid. Expected ${expected}, got ${nonce}`);
    if ((reserved?.size ?? 0) >= this.maxPerSender) throw new NonceError('Too many pending transactions reserved for sender');
    if (options.dryRun) return;
    let map = this.bySender.get(sender);
    if (!map) this.bySender.set(sender, (map = new Map()));
    map.set(nonce, { txSha256, expiresAt: this.now() + this.ttlMs });
  }

  /** Drops the reservation a tx holds (it was included in a block, or left the mempool). */
  release(sender: string, nonce: number, txSha256: string): void {
    const map = this.bySender.get(sender);
    if (map?.get(nonce)?.txSha256 === txSha256) {
      map.delete(nonce);
      if (map.size === 0) this.bySender.delete(sender);
    }
  }

  /** After a commit: drops reservations at or below the sender's committed nonce. */
  prune(sender: string, committed: number | undefined): void {
    this.live(sender, committed);
  }

  get size(): number {
    let n = 0;
    for (const m of this.bySender.values()) n += m.size;
    return n;
  }

  clear(): void {
    this.bySender.clear();
  }

  private live(sender: string, committed: number | undefined): Map<number, Reservation> | undefined {
    const map = this.bySender.get(sender);
    if (!map) return undefined;
    const now = this.now();
    for (const [nonce, r] of map) {
      if (r.expiresAt <= now || (committed !== undefined && nonce <= committed)) map.delete(nonce);
    }
    if (map.size === 0) {
      this.bySender.delete(sender);
      return undefined;
    }
    return map;
  }
}
