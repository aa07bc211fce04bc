import { join } from 'node:path';
import type { Logger } from 'chainhost/plugin';
import { AbciQuery, type QueryResolver } from './abci-query.js';
import { BlockExecutor } from './block-executor.js';
import { BlockProducer, type StatePatchStep } from './block-producer.js';
import { ChainStore } from './chain-store.js';
import { checkTx, sha256Hex, type CheckTxResult } from './check-tx.js';
import { EventBus } from './event-bus.js';
import type { Executor } from '../engine/executor.js';
import { genesisEntries, genesisTimeNanos, type GenesisDoc } from './genesis-doc.js';
import { Mempool, MempoolError } from './mempool.js';
import type { NodeConfig } from './node-config.js';
import type { NodeIdentity } from './node-identity.js';
import { NonceReservations } from './nonce-reservations.js';
import { PerfStatus, perfEnabledFromEnv } from './perf-status.js';
import { Simulator } from './simulator.js';
import type { StoredBlock } from './stored-block.js';

/**
 * The devnet node without its servers: committed chain (store), mempool with CheckTx and nonce
 * reservations, block producer, event bus, `abci_query` and the dry-run simulator, wired
 * together. `DevnetRpc` turns it into CometBFT's RPC; `Devnet` adds genesis, HTTP and metrics.
 */
export interface StatePatchSource extends StatePatchStep {
  bundles(): unknown[];
  scheduled(height: number): unknown[];
}

export interface DevnetNodeOptions {
  home: string;
  chainId: string;
  blockTimeMs: number;
  config: NodeConfig;
  identity: NodeIdentity;
  genesis: GenesisDoc;
  executor: Executor;
  logger: Logger;
  resolver?: QueryResolver;
  patches?: (node: { store: ChainStore }) => StatePatchSource;
  onCommit?: (block: StoredBlock) => void;
}

export interface Admission {
  check: CheckTxResult;
}

export class DevnetNode {
  readonly chainId: string;
  readonly config: NodeConfig;
  readonly store: ChainStore;
  readonly mempool: Mempool;
  readonly reservations: NonceReservations;
  readonly events: EventBus;
  readonly perf: PerfStatus;
  readonly simulator: Simulator;
  readonly query: AbciQuery;
  readonly producer: BlockProducer;
  /** The block-execution worker thread. */
  readonly blockExecutor: BlockExecutor;
  readonly identity: NodeIdentity;
  readonly genesis: GenesisDoc;
  readonly patches: StatePatchSource | undefined;
  private closed = false;

  constructor(options: DevnetNodeOptions) {
    const { config, logger } = options;
    this.chainId = options.chainId;
    this.config = config;
    this.identity = options.identity;
    this.genesis = options.genesis;
    this.store = ChainStore.open(join(options.home, 'data'), genesisEntries(options.genesis), {
      fsync: config.fsync, snapshotInterval: config.snapshot_interval_blocks, onProgress: startupProgress(logger),
      onNotice: (message) => logger.warn(message),
    });
    this.mempool = new Mempool(config.mempool_size);
    this.reservations = new NonceReservations(config.max_pending_nonces_per_sender, config.pending_nonce_reservation_ttl_seconds * 1000);
    this.events = new EventBus((err) => logger.warn('event listener failed', { error: err instanceof Error ? err.message : String(err) }));
    this.perf = new PerfStatus(perfEnabledFromEnv(), options.chainId);
    this.simulator = new Simulator(options.chainId, config, this.store);
    this.patches = options.patches?.({ store: this.store });
    this.query = new AbciQuery({
      chainId: options.chainId,
      state: this.store.state,
      executor: options.executor,
      latestBlock: () => {
        const b = this.store.latest();
        return b ? { timeNanos: BigInt(b.time_nanos), hash: b.block_id.hash.toLowerCase() } : undefined;
      },
      reservations: this.reservations,
      perf: this.perf,
      simulate: (hex) => this.simulator.simulate(hex),
      patchBundles: () => this.patches?.bundles() ?? [],
      scheduledPatches: (height) => this.patches?.scheduled(height) ?? [],
      resolver: options.resolver,
    });
    this.blockExecutor = new BlockExecutor(config.tx_fee_mode, this.store.state, options.executor, logger);
    this.producer = new BlockProducer({
      chainId: options.chainId, config, store: this.store, mempool: this.mempool, reservations: this.reservations,
      identity: options.identity, executor: this.blockExecutor, events: this.events, perf: this.perf, logger,
      genesisAppHash: options.genesis.app_hash, genesisTimeNanos: genesisTimeNanos(options.genesis),
      patches: this.patches, onCommit: options.onCommit,
    }, options.blockTimeMs);
  }

  async start(): Promise<void> {
    this.blockExecutor.warm();
    await this.producer.start();
  }

  /**
   * Mempool admission for `broadcast_tx_*`: throws MempoolError (cache hit, full) as CometBFT
   * answers those with an RPC error; otherwise the CheckTx result, and the tx is pooled if it passed.
   */
  admit(raw: Buffer): Admission {
    const sha = sha256Hex(raw);
    this.mempool.precheck(sha.toUpperCase(), raw.length);
    const check = checkTx(raw, { chainId: this.chainId, config: this.config, state: this.store.state, reservations: this.reservations }, false, sha);
    if (check.code !== 0 || !check.tx) {
      this.mempool.forget(check.hash);
      return { check };
    }
    const entry = { raw, hash: check.hash, sha256: check.sha256, sender: check.tx.payload.sender, nonce: Number(check.tx.payload.nonce) };
    this.mempool.add(entry);
    this.producer.txAdded(entry, check.tx);
    return { check };
  }

  /** The `check_tx` RPC: every CheckTx step, nothing reserved or pooled. */
  checkOnly(raw: Buffer): CheckTxResult {
    return checkTx(raw, { chainId: this.chainId, config: this.config, state: this.store.state, reservations: this.reservations }, true);
  }

  get height(): number {
    return this.store.height;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.producer.shutdown();
    // A block mid-execution is abandoned (its transactions stay in the block log's future: none committed).
    await this.blockExecutor.close();
    await this.producer.idle();
    await this.simulator.close();
    this.store.close();
  }
}

export { MempoolError };

/**
 * Start-up reads the whole block log once (state replay, hash and event indexes); on a log of
 * more than 16 MB, say how far it got every tenth (the logger writes to stderr).
 */
function startupProgress(logger: Logger): (read: number, size: number) => void {
  let next = 0.1;
  return (read, size) => {
    if (size < 16 * 1024 * 1024 || read / size < next) return;
    next = Math.floor((read / size) * 10 + 1) / 10;
    logger.info('reading the block log', { percent: Math.round((read / size) * 100), bytes: read, of: size });
  };
}
