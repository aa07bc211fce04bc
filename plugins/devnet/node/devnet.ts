import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { ChainDatetime, deriveCanonicalKey, mnemonicToSeed, publicKeyFromPrivate } from 'chainhost/chain';
import { DirectoryLock, type Logger, silentLogger } from 'chainhost/plugin';
import { buildGenesis } from '../engine/genesis.js';
import type { QueryResolver } from './abci-query.js';
import { ChainStore } from './chain-store.js';
import { DevnetChainRpc } from './devnet-chain-rpc.js';
import { createDevnetExecutor } from './devnet-engine.js';
import { DevnetNode } from './devnet-node.js';
import { DevnetRpc } from './devnet-rpc.js';
import { buildGenesisDoc, readGenesisDoc, writeGenesisDoc, type GenesisDoc } from './genesis-doc.js';
import { MetricsServer, NodeMetrics } from './metrics-server.js';
import { loadNodeConfig, type NodeConfig } from './node-config.js';
import { loadNodeIdentity, type NodeIdentity } from './node-identity.js';
import { RpcServer } from './rpc-server.js';
import { encodeStateText } from './state-reader.js';
import { StatePatches } from './state-patches.js';
import type { StoredBlock } from './stored-block.js';

/**
 * The embedded local node, in the spirit of Anvil/Hardhat: `Devnet.open({home})` starts (or
 * resumes) a one-validator chain under `<home>` whose dev accounts — the first N keys of a
 * mnemonic under the official wallets' scheme — each hold 1,000,000 of the native currency.
 * `rpc` is an in-process `ChainRpc`; `listen()` serves CometBFT's RPC, WebSocket and metrics.
 */
export const DEFAULT_MNEMONIC = 'test test test test test test test test test test test junk';
export const DEFAULT_CHAIN_ID = 'chain-local-1';

export interface DevnetOptions {
  home: string;
  chainId?: string;
  /** 0 (default) = a block as soon as transactions arrive; otherwise one block every N ms. */
  blockTimeMs?: number;
  accounts?: number;
  mnemonic?: string;
  /** Wipe `<home>/data` and the genesis first. */
  reset?: boolean;
  /** Plugin-contributed query paths, consulted after the core paths. */
  queryResolver?: QueryResolver;
  /** Overrides of `<home>/config/chain.toml` for this run. */
  config?: Partial<NodeConfig>;
  logger?: Logger;
}

export interface DevAccount {
  index: number;
  address: string;
  privateKey: string;
}

export interface ListenOptions {
  host?: string;
  /** Default 26657; 0 picks a free port. */
  port?: number;
  /** Default 9108; 0 picks a free port; null disables the metrics server. */
  metricsPort?: number | null;
  /** Browser origins (besides pages of the node's own origin) allowed to open `/websocket`. */
  allowedOrigins?: readonly string[];
}

export interface Listening {
  rpcUrl: string;
  websocketUrl: string;
  metricsUrl: string | null;
}

export class Devnet {
  readonly rpc: DevnetChainRpc;
  readonly dispatcher: DevnetRpc;
  private rpcServer: RpcServer | undefined;
  private metricsServer: MetricsServer | undefined;
  private address: AddressInfo | undefined;
  private urls: Listening | undefined;
  private closed = false;

  private constructor(
    readonly node: DevnetNode,
    readonly home: string,
    private readonly devAccounts: DevAccount[],
    private readonly metrics: NodeMetrics,
    private readonly logger: Logger,
    private readonly lock: DirectoryLock,
  ) {
    this.dispatcher = new DevnetRpc(node, { rpcAddress: () => (this.address ? `tcp://${this.address.address}:${this.address.port}` : 'tcp://127.0.0.1:26657') });
    this.rpc = new DevnetChainRpc(this.dispatcher, node.events);
  }

  static async open(options: DevnetOptions): Promise<Devnet> {
    const home = resolve(options.home);
    const chainId = options.chainId ?? DEFAULT_CHAIN_ID;
    const logger = options.logger ?? silentLogger;
    mkdirSync(home, { recursive: true });
    const lock = DirectoryLock.acquire(home, 'a devnet', { file: 'devnet.lock', advice: 'stop it first or use another home' });
    try {
      if (options.reset) {
        ChainStore.wipe(join(home, 'data'));
        rmSync(join(home, 'config', 'genesis.json'), { force: true });
      }
      const config = loadNodeConfig(home, options.config);
      const identity = loadNodeIdentity(home);
      const accounts = deriveAccounts(options.mnemonic ?? DEFAULT_MNEMONIC, options.accounts ?? 10);
      const genesis = loadOrCreateGenesis(home, chainId, identity, accounts, config);
      return await Devnet.start(home, chainId, options, config, identity, accounts, genesis, logger, lock);
    } catch (err) {
      lock.release();
      throw err;
    }
  }

  private static async start(
    home: string, chainId: string, options: DevnetOptions, config: NodeConfig, identity: NodeIdentity,
    accounts: DevAccount[], genesis: GenesisDoc, logger: Logger, lock: DirectoryLock,
  ): Promise<Devnet> {
    let metrics: NodeMetrics | undefined;
    const node = new DevnetNode({
      home, chainId, blockTimeMs: options.blockTimeMs ?? 0, config, identity, genesis, logger,
      executor: createDevnetExecutor({ feeMode: config.tx_fee_mode }),
      resolver: options.queryResolver,
      patches: ({ store }) => new StatePatches(join(home, 'config', 'state-patches'), chainId, store.state),
      onCommit: (block: StoredBlock) => metrics?.committed(block),
    });
    metrics = new NodeMetrics(node);
    const devnet = new Devnet(node, home, accounts, metrics, logger, lock);
    try {
      await node.start();
    } catch (err) {
      await node.close();
      throw err;
    }
    logger.info('devnet started', { home, chainId, height: node.height, accounts: accounts.length });
    return devnet;
  }

  get chainId(): string {
    return this.node.chainId;
  }

  /** The dev accounts with their private keys (for tests and tools; the banner prints addresses only). */
  accounts(): DevAccount[] {
    return this.devAccounts.map((a) => ({ ...a }));
  }

  /** Cuts a block now with whatever the mempool holds (on-demand mining; also works with an interval). */
  mine(): Promise<StoredBlock> {
    return this.node.producer.produce();
  }

  async listen(options: ListenOptions = {}): Promise<Listening> {
    if (this.rpcServer) throw new Error('the devnet is already listening');
    const host = options.host ?? '127.0.0.1';
    this.rpcServer = new RpcServer(this.dispatcher, this.node.events, this.logger, {}, options.allowedOrigins ?? []);
    this.address = await this.rpcServer.listen(options.port ?? 26657, host);
    const base = `${urlHost(host)}:${this.address.port}`;
    let metricsUrl: string | null = null;
    if (options.metricsPort !== null) {
      this.metricsServer = new MetricsServer(this.metrics);
      const m = await this.metricsServer.listen(options.metricsPort ?? 9108, host);
      metricsUrl = `http://${urlHost(host)}:${m.port}/metrics`;
    }
    this.urls = { rpcUrl: `http://${base}`, websocketUrl: `ws://${base}/websocket`, metricsUrl };
    return this.urls;
  }

  /** Where `listen()` put the servers (undefined before). */
  get listening(): Listening | undefined {
    return this.urls;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.rpc.close();
    await this.rpcServer?.close();
    await this.metricsServer?.close();
    await this.node.close();
    this.lock.release();
  }
}

function urlHost(host: string): string {
  return host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
}

export function deriveAccounts(mnemonic: string, count: number): DevAccount[] {
  if (!Number.isInteger(count) || count < 1 || count > 1000) throw new RangeError(`accounts must be an integer from 1 to 1000, got ${count}`);
  const seed = mnemonicToSeed(mnemonic);
  return Array.from({ length: count }, (_, index) => {
    const privateKey = deriveCanonicalKey(seed, index);
    return { index, address: publicKeyFromPrivate(privateKey), privateKey };
  });
}

function loadOrCreateGenesis(home: string, chainId: string, identity: NodeIdentity, accounts: DevAccount[], config: NodeConfig): GenesisDoc {
  const file = join(home, 'config', 'genesis.json');
  const existing = readGenesisDoc(file);
  if (existing) {
    if (existing.chain_id !== chainId) {
      throw new Error(`${home} holds chain ${existing.chain_id}, not ${chainId}; open it with chainId ${JSON.stringify(existing.chain_id)} or pass reset to start a new chain`);
    }
    return existing;
  }
  const timeNanos = BigInt(Date.now()) * 1_000_000n;
  const { writes } = buildGenesis({ chainId, accounts: accounts.map((a) => a.address), genesisTime: ChainDatetime.fromNanos(timeNanos) });
  const entries: Array<[string, string]> = [];
  for (const w of writes) if (w.value !== null) entries.push([w.key, encodeStateText(w.value)]);
  const doc = buildGenesisDoc({ chainId, timeNanos, validator: identity.validator, entries, maxBlockBytes: config.max_block_bytes });
  mkdirSync(join(home, 'config'), { recursive: true });
  writeGenesisDoc(file, doc);
  return doc;
}

