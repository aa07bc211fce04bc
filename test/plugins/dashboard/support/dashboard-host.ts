import 'reflect-metadata';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { ChainNode } from '../../../../core/chain/node.js';
import { CoreTokens } from '../../../../core/core-tokens.js';
import { silentLogger } from '../../../../core/logger.js';
import { encodeTransaction, signTransaction } from '../../../../core/chain/transaction.js';
import type { Host } from '../../../../host/host.js';
import { DEFAULT_MNEMONIC, deriveAccounts, type DevAccount } from '../../../../plugins/devnet/node/devnet.js';
import { loadTestConfig } from '../../../support/test-host.js';
import { writeNodeConfig, type NodeConfig } from '../../../../plugins/devnet/node/node-config.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const SLOW_NODE_PLUGIN = path.join(HERE, 'slow-node.plugin.ts');

/** Rates high enough that a suite never meets a limit (limits have their own suite). */
export const RELAXED_LIMITS = {
  limits: { api: { ratePerSecond: 10_000, burst: 10_000 }, expensive: { ratePerSecond: 10_000, burst: 10_000 }, websocket: { ratePerSecond: 10_000, burst: 10_000 } },
};

export interface DashboardHost {
  host: Host;
  base: string;
  url(p?: string): string;
  wsUrl(p?: string): string;
  /** The devnet's funded dev accounts (empty without a devnet). */
  accounts: DevAccount[];
  chainId: string;
  node: ChainNode;
  stop(): Promise<void>;
}

export interface DashboardHostOptions {
  /** `plugins.dashboard` options (port 0 unless given). */
  dashboard?: Record<string, unknown>;
  /**
   * Run the devnet in-process (default) or not (then `node.url` or another node plugin is the
   * node). `{listen: true}` also serves its CometBFT RPC on a free port.
   */
  devnet?: boolean | { listen: boolean };
  plugins?: Record<string, Record<string, unknown>>;
  config?: Record<string, unknown>;
  env?: Record<string, string>;
  /** The devnet's `config/chain.toml` settings for this run (e.g. a dry-run deadline that survives a loaded machine). */
  nodeConfig?: Partial<NodeConfig>;
}

/**
 * The Host is imported dynamically, like the plugins it loads. Mocha (Node ≥ 20.19, require of
 * ESM) loads test files through tsx's CommonJS hook, so a static import here would give the
 * host its own copy of core/errors.ts while plugins (dynamic `import()`) get the ESM copy — and
 * the host's `instanceof ApiError` would turn every plugin's 404/503 into a 500.
 */
export function loadHostModule(): Promise<typeof import('../../../../host/host.js')> {
  return import('../../../../host/host.js');
}

/** A real Host with the dashboard plugin (and, by default, the devnet) on a free loopback port. */
export async function bootDashboardHost(options: DashboardHostOptions = {}): Promise<DashboardHost> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'chainhost-dashboard-'));
  const plugins: Record<string, Record<string, unknown>> = {};
  const listen = typeof options.devnet === 'object' && options.devnet.listen;
  // The devnet in-process, on a fresh chain; with `listen` its RPC also serves a free port.
  if (options.devnet !== false) {
    if (options.nodeConfig) writeNodeConfig(path.join(home, 'devnet'), options.nodeConfig);
    plugins.devnet = { home: path.join(home, 'devnet'), reset: true, printAccounts: false, listen, port: 0, metricsPort: null };
  }
  Object.assign(plugins, options.plugins ?? {});
  plugins.dashboard = { port: 0, ...options.dashboard };
  const loaded = await loadTestConfig({ home, ...options.config, plugins }, options.env ?? {});
  const { Host } = await loadHostModule();
  const host = await Host.create(loaded, { log: silentLogger });
  try {
    await host.start();
  } catch (err) {
    await host.stop().catch(() => undefined);
    await rm(home, { recursive: true, force: true });
    throw err;
  }
  // As bootTestHost: a fresh home's BDS starts PGlite in the background, CPU the host's dry runs
  // would otherwise share (a DEX flow's first dry run missed the wallet's 10 s deadline under load).
  if (host.pluginNames().includes('bds')) await host.resolve((await import('../../../../plugins/bds/index.js')).BdsTokens.database).whenIndexing();
  const base = host.serverUrl('dashboard')!;
  return {
    host,
    base,
    url: (p = '') => base + p,
    wsUrl: (p = '/ws') => base.replace(/^http/, 'ws') + p,
    accounts: options.devnet === false ? [] : deriveAccounts(DEFAULT_MNEMONIC, 10),
    chainId: loaded.settings.chainId,
    node: host.resolve(CoreTokens.chainNode),
    stop: async () => {
      await host.stop();
      await rm(home, { recursive: true, force: true });
    },
  };
}

/** Signs and commits `currency.transfer` from dev account `from`; returns the tx hash. */
export async function transfer(h: DashboardHost, to: string, amount: number, from = 0): Promise<{ hash: string; height: string }> {
  return callContract(h, { contract: 'currency', function: 'transfer', kwargs: { amount, to } }, from);
}

/** Signs and commits any call from dev account `from` (it may fail in execution; CheckTx must accept it). */
export async function callContract(h: DashboardHost, call: { contract: string; function: string; kwargs: Record<string, unknown> }, from = 0): Promise<{ hash: string; height: string }> {
  const account = h.accounts[from]!;
  const nonceAnswer = await h.node.query(`/get_next_nonce/${account.address}`);
  const nonce = Number(nonceAnswer.value?.text ?? '0');
  const signed = signTransaction({
    chain_id: h.chainId,
    chi_supplied: 1000,
    contract: call.contract,
    function: call.function,
    kwargs: call.kwargs as never,
    nonce,
    sender: account.address,
  }, account.privateKey);
  const encoded = encodeTransaction(signed);
  const result = await h.node.broadcastTxCommit(encoded.hex);
  if (result.check_tx.code !== 0) throw new Error(`${call.contract}.${call.function} refused: ${result.check_tx.log}`);
  return { hash: result.hash, height: result.height };
}

/** A WebSocket client that collects every message. */
export interface WsClient {
  socket: WebSocket;
  messages: any[];
  /** Resolves with the first message (seen or future) that matches. */
  next(match: (m: any) => boolean, timeoutMs?: number): Promise<any>;
  send(message: unknown): void;
  close(): Promise<void>;
}

export async function connectWs(url: string, headers: Record<string, string> = {}): Promise<WsClient> {
  const socket = new WebSocket(url, { headers });
  const messages: any[] = [];
  const waiters: Array<{ match: (m: any) => boolean; resolve: (m: any) => void }> = [];
  socket.on('message', (data) => {
    const m = JSON.parse(String(data));
    messages.push(m);
    for (const w of [...waiters]) {
      if (w.match(m)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
    }
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
    socket.once('unexpected-response', (_req, res) => reject(Object.assign(new Error(`upgrade refused: ${res.statusCode} ${res.statusMessage}`), { status: res.statusCode, statusMessage: res.statusMessage })));
  });
  return {
    socket,
    messages,
    next: (match, timeoutMs = 10_000) => {
      const seen = messages.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching WebSocket message within ${timeoutMs} ms; got ${JSON.stringify(messages).slice(0, 800)}`)), timeoutMs);
        waiters.push({ match, resolve: (m) => { clearTimeout(timer); resolve(m); } });
      });
    },
    send: (message) => socket.send(typeof message === 'string' ? message : JSON.stringify(message)),
    close: () => new Promise<void>((resolve) => {
      if (socket.readyState === WebSocket.CLOSED) return resolve();
      socket.once('close', () => resolve());
      socket.close();
    }),
  };
}
