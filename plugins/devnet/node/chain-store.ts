import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { BlockLog, BlockLogCorruptError, type BlockLogEntry } from './block-log.js';
import { SearchIndex } from './search-index.js';
import { readSnapshot, writeSnapshot } from './state-snapshot.js';
import { StateStore } from './state-store.js';
import type { StoredBlock } from './stored-block.js';

/**
 * Everything the node has committed, on disk under `<home>/data`:
 *
 * - `blocks.log` — append-only, one checksummed JSON line per block (header, txs, results and
 *   the block's state writes). Appending it (fsync'd) is the commit point.
 * - `state.snapshot` — full state at some height, replaced atomically every
 *   `snapshotInterval` blocks and on close; start-up loads it and replays the later blocks'
 *   writes from the log (without one, from genesis).
 *
 * A kill -9 therefore loses at most the block being appended: a torn last line is cut off on
 * the next open. In memory: the state, a height → log position index, the tx-hash index, the
 * event search index (`tx_search`, `block_search`; built in the same pass over the log that
 * start-up makes anyway, then kept as blocks commit) and a small cache of recent blocks.
 */
export interface ChainStoreOptions {
  fsync: boolean;
  snapshotInterval: number;
  /** Start-up progress over the block log (bytes read of its size), every few MB. */
  onProgress?: (read: number, size: number) => void;
  /** Start-up found something to repair by itself (a damaged snapshot): what and how. */
  onNotice?: (message: string) => void;
}

export interface TxLocation {
  height: number;
  index: number;
}

/**
 * Decoded blocks kept, least recently used out: more than two full search pages (`per_page` is at
 * most 100), so a `block_search` or `tx_search` page asked again — a client polling, or a
 * hostile loop — is answered from memory instead of decoding its 100 blocks from the log each
 * time (64 held less than one page, and a page read newest first evicted itself).
 */
const CACHE_SIZE = 256;

export class ChainStore {
  readonly state: StateStore;
  private readonly entries: BlockLogEntry[] = [];
  private readonly byHash = new Map<string, number>();
  private readonly txIndex = new Map<string, TxLocation>();
  private readonly cache = new Map<number, StoredBlock>();
  private snapshotHeight: number;
  private closed = false;
  /** Blocks decoded from the log since open (cache misses): the cost of reads, for tests and metrics. */
  blocksDecoded = 0;
  /** Why the last periodic snapshot failed (a full disk, say); cleared by the next one that succeeds. */
  snapshotError: Error | undefined;
  private snapshotRetryAt = 0;

  private constructor(
    private readonly dir: string,
    private readonly log: BlockLog,
    state: StateStore,
    snapshotHeight: number,
    private readonly options: ChainStoreOptions,
    readonly search: SearchIndex,
  ) {
    this.state = state;
    this.snapshotHeight = snapshotHeight;
  }

  static open(dataDir: string, genesis: Array<[string, string]>, options: ChainStoreOptions): ChainStore {
    mkdirSync(dataDir, { recursive: true });
    const snapshotFile = join(dataDir, 'state.snapshot');
    const snapshot = readSnapshot(snapshotFile, (problem) => options.onNotice?.(
      `${snapshotFile} is damaged (${problem}); replaying the block log from genesis instead, and a new snapshot replaces it`,
    ));
    let state = snapshot
      ? new StateStore(snapshot.entries, snapshot.height, BigInt('0x' + (snapshot.root || '0')))
      : new StateStore(genesis, 0);
    const indexed: Array<{ block: Pick<StoredBlock, 'height' | 'block_id' | 'tx_hashes'>; entry: BlockLogEntry }> = [];
    const search = new SearchIndex();
    const logFile = join(dataDir, 'blocks.log');
    const log = BlockLog.open(logFile, { fsync: options.fsync, onProgress: options.onProgress }, (record, entry) => {
      const block = record as StoredBlock;
      const problem = blockRecordProblem(block, indexed.length + 1);
      if (problem) throw new BlockLogCorruptError(logFile, entry.offset, problem);
      if (block.height > state.height) state.apply(new Map(block.writes), block.height);
      search.add(block);
      indexed.push({ block: { height: block.height, block_id: block.block_id, tx_hashes: block.tx_hashes }, entry });
    });
    let snapshotHeight = snapshot?.height ?? 0;
    if (state.height > indexed.length) {
      // The snapshot is ahead of the log (only possible with fsync off): rebuild from genesis.
      state = new StateStore(genesis, 0);
      for (const { block, entry } of indexed) state.apply(new Map((log.read(entry) as StoredBlock).writes), block.height);
      snapshotHeight = 0;
    }
    const store = new ChainStore(dataDir, log, state, snapshotHeight, options, search);
    for (const { block, entry } of indexed) store.index(block, entry);
    return store;
  }

  /** Deletes `<home>/data` (blocks, snapshot). */
  static wipe(dataDir: string): void {
    rmSync(dataDir, { recursive: true, force: true });
  }

  get height(): number {
    return this.entries.length;
  }

  /** Commits one block: log append (the durable commit point), then state and indexes. */
  commit(block: StoredBlock, writes: ReadonlyMap<string, string | null>): void {
    if (block.height !== this.height + 1) throw new Error(`cannot commit height ${block.height} on top of ${this.height}`);
    const entry = this.log.append(block);
    this.state.apply(writes, block.height);
    this.index(block, entry);
    this.search.add(block);
    this.remember(block);
    if (block.height - this.snapshotHeight >= this.options.snapshotInterval && block.height >= this.snapshotRetryAt) this.trySnapshot();
  }

  block(height: number): StoredBlock | undefined {
    if (!Number.isInteger(height) || height < 1 || height > this.height) return undefined;
    const cached = this.cache.get(height);
    if (cached) {
      // Most recently used last: eviction takes the first key.
      this.cache.delete(height);
      this.cache.set(height, cached);
      return cached;
    }
    const block = this.log.read(this.entries[height - 1]!) as StoredBlock;
    this.blocksDecoded++;
    this.remember(block);
    return block;
  }

  latest(): StoredBlock | undefined {
    return this.block(this.height);
  }

  heightOfHash(hashUpper: string): number | undefined {
    return this.byHash.get(hashUpper.toUpperCase());
  }

  txLocation(hashUpper: string): TxLocation | undefined {
    return this.txIndex.get(hashUpper.toUpperCase());
  }

  /** Writes the state snapshot now (also done every `snapshotInterval` blocks and on close). */
  snapshot(): void {
    const root = this.state.root.accumulator.toString(16);
    writeSnapshot(join(this.dir, 'state.snapshot'), { height: this.state.height, root, entries: [...this.state.entries()] }, this.options.fsync);
    this.snapshotHeight = this.state.height;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      if (this.snapshotHeight !== this.state.height) this.trySnapshot();
    } finally {
      this.log.close();
    }
  }

  /**
   * A snapshot only shortens the next start-up (the log holds every block), so failing to write
   * one must not fail the commit that triggered it: note why, and try again some blocks later.
   */
  private trySnapshot(): void {
    try {
      this.snapshot();
      this.snapshotError = undefined;
    } catch (err) {
      this.snapshotError = err instanceof Error ? err : new Error(String(err));
      this.snapshotRetryAt = this.state.height + Math.max(1, Math.floor(this.options.snapshotInterval / 10));
      rmSync(join(this.dir, 'state.snapshot.tmp'), { force: true });
    }
  }

  private index(block: Pick<StoredBlock, 'height' | 'block_id' | 'tx_hashes'>, entry: BlockLogEntry): void {
    this.entries.push(entry);
    this.byHash.set(block.block_id.hash, block.height);
    block.tx_hashes.forEach((hash, index) => {
      // A hash seen twice (a tx rejected in one block and included later) points at its last block.
      this.txIndex.set(hash, { height: block.height, index });
    });
  }

  private remember(block: StoredBlock): void {
    this.cache.delete(block.height);
    this.cache.set(block.height, block);
    if (this.cache.size > CACHE_SIZE) this.cache.delete(this.cache.keys().next().value as number);
  }
}

/** Why a checksummed log record is not the next block (a hand-edited or foreign log), or undefined. */
function blockRecordProblem(block: StoredBlock, expectedHeight: number): string | undefined {
  if (!block || typeof block !== 'object') return 'the record is not a block';
  if (block.height !== expectedHeight) return `expected height ${expectedHeight}, found ${JSON.stringify(block.height)}`;
  if (typeof block.block_id?.hash !== 'string') return 'block_id.hash is missing';
  if (!Array.isArray(block.tx_hashes) || !Array.isArray(block.txs_results) || block.tx_hashes.length !== block.txs_results.length) return 'tx_hashes and txs_results do not match';
  if (!Array.isArray(block.finalize_block_events)) return 'finalize_block_events is missing';
  if (!Array.isArray(block.writes)) return 'writes is missing';
  return undefined;
}
