import net from 'node:net';
import { ChainNode, HttpChainRpc, type RpcCallOptions } from 'chainhost/chain';
import { ApiError, type QueryPathRegistry } from 'chainhost/plugin';
import { readNode } from '../http/node-errors.js';
import { AbciSource } from './abci-source.js';

/** What one request reads through: the node (the configured one or an allowed peer) with its deadline. */
export interface ReadContext {
  node: ChainNode;
  abci: AbciSource;
  call: RpcCallOptions;
  /** The inspected peer URL, or null for the configured node. */
  peer: string | null;
}

export interface NodeTargetsOptions {
  node: () => ChainNode;
  /** The configured node URL as shown by `/api/config`. */
  defaultUrl: string;
  registry: QueryPathRegistry | null;
  requestTimeoutMs: number;
  peerInspection: { enabled: boolean; allowListTtlMs: number };
  /** For tests: how a peer's client is made. */
  connect?: (url: string, timeoutMs: number) => ChainNode;
}

const MAX_PEER_CLIENTS = 32;
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]', '127.0.0.1', 'localhost', '::1', '[::1]', '']);

/**
 * `?rpc=<url>` peer inspection (dashboard.md §2): the dashboard may read another node, but only
 * the configured node and the peers it reports in `net_info` — it is not a general HTTP proxy.
 * The allow-list is cached for `allowListTtlMs` (upstream rebuilt it with two RPC calls per
 * request) and peer clients are kept in a small bounded pool.
 */
export class NodeTargets {
  private allowList: { at: number; urls: Promise<Set<string>> } | null = null;
  private readonly peers = new Map<string, ChainNode>();
  readonly defaultUrl: string;

  constructor(private readonly options: NodeTargetsOptions) {
    this.defaultUrl = normalizeRpcUrl(options.defaultUrl) ?? options.defaultUrl;
  }

  /** The context of one request; `rpc` is the raw `?rpc=` value. */
  async forRequest(rpc: string | undefined): Promise<ReadContext> {
    const timeoutMs = this.options.requestTimeoutMs;
    // One deadline for the whole request (all its node calls, retries included): a signal, so
    // it surfaces as a TimeoutError (504) rather than as a transport failure (502).
    const call: RpcCallOptions = { signal: AbortSignal.timeout(timeoutMs) };
    const target = rpc === undefined || rpc.trim() === '' ? null : normalizeRpcUrl(rpc);
    if (rpc !== undefined && rpc.trim() !== '' && target === null) {
      throw ApiError.badRequest(`query parameter rpc must be an http(s) or tcp node URL such as http://10.0.0.5:26657, got ${JSON.stringify(rpc.slice(0, 100))}`, { parameter: 'rpc' });
    }
    if (target === null || target === this.defaultUrl) {
      const node = this.options.node();
      return { node, abci: new AbciSource(node, this.options.registry, call), call, peer: null };
    }
    if (!this.options.peerInspection.enabled) {
      throw new ApiError(400, 'unsupported_rpc_target', `Unsupported rpc target: ${target} (peer inspection is disabled)`, { rpc: target });
    }
    const allowed = await this.allowed(call);
    if (!allowed.has(target)) {
      throw new ApiError(400, 'unsupported_rpc_target', `Unsupported rpc target: ${target}; only the configured node and its known peers can be inspected`, { rpc: target, allowed: [...allowed].sort() });
    }
    const node = this.peerClient(target);
    return { node, abci: new AbciSource(node, null, call), call, peer: target };
  }

  /** The peer URLs that may be inspected (the configured node's advertised address and its peers'). */
  async allowed(call: RpcCallOptions): Promise<Set<string>> {
    const now = Date.now();
    if (!this.allowList || now - this.allowList.at > this.options.peerInspection.allowListTtlMs) {
      const urls = this.buildAllowList(call);
      this.allowList = { at: now, urls };
      urls.catch(() => {
        if (this.allowList?.urls === urls) this.allowList = null;
      });
    }
    return this.allowList.urls;
  }

  async close(): Promise<void> {
    const peers = [...this.peers.values()];
    this.peers.clear();
    await Promise.allSettled(peers.map((p) => p.close()));
  }

  private async buildAllowList(call: RpcCallOptions): Promise<Set<string>> {
    const node = this.options.node();
    const [status, netInfo] = await Promise.all([
      readNode('status', () => node.status(call)),
      readNode('net_info', () => node.netInfo(call)),
    ]);
    const urls = new Set<string>([this.defaultUrl]);
    const own = rpcAddressOf(status.node_info.other?.rpc_address, null);
    if (own) urls.add(own);
    for (const peer of netInfo.peers ?? []) {
      const url = rpcAddressOf(peer.node_info?.other?.rpc_address, peer.remote_ip);
      if (url) urls.add(url);
    }
    return urls;
  }

  private peerClient(url: string): ChainNode {
    let node = this.peers.get(url);
    if (node) return node;
    if (this.peers.size >= MAX_PEER_CLIENTS) {
      const [oldestUrl, oldest] = this.peers.entries().next().value as [string, ChainNode];
      this.peers.delete(oldestUrl);
      void oldest.close().catch(() => undefined);
    }
    const connect = this.options.connect ?? ((u, t) => new ChainNode(new HttpChainRpc(u, { timeoutMs: t, retries: 0 })));
    node = connect(url, this.options.requestTimeoutMs);
    this.peers.set(url, node);
    return node;
  }
}

/**
 * Upstream's RPC URL normalisation: `tcp://`/`unix://` → `http://`, a missing scheme → `http://`,
 * bare IPv6 bracketed (`tcp://::1:26657` → `http://[::1]:26657`), trailing `/` dropped. Null for
 * anything that is not a plain http(s) URL (credentials, query strings and fragments included).
 */
export function normalizeRpcUrl(raw: string): string | null {
  let v = raw.trim().replace(/^(tcp|unix):\/\//i, 'http://');
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(v)) v = `http://${v}`;
  const m = /^([a-z][a-z0-9+.-]*):\/\/([^/]*)(.*)$/i.exec(v);
  if (!m) return null;
  const scheme = m[1]!.toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') return null;
  let authority = m[2]!;
  if (!authority.startsWith('[') && (authority.match(/:/g)?.length ?? 0) > 1) {
    const cut = authority.lastIndexOf(':');
    const host = authority.slice(0, cut);
    const port = authority.slice(cut + 1);
    authority = net.isIPv6(host) && /^\d+$/.test(port) ? `[${host}]:${port}` : net.isIPv6(authority) ? `[${authority}]` : authority;
  }
  try {
    const url = new URL(`${scheme}://${authority}${m[3]}`);
    if (url.username || url.password || url.search || url.hash || !url.hostname) return null;
    const path = url.pathname.replace(/\/+$/, '');
    return `${url.protocol}//${url.host}${path}`;
  } catch {
    return null;
  }
}

/** A peer's advertised `rpc_address` with wildcard and loopback hosts replaced by its remote IP. */
export function rpcAddressOf(address: string | undefined, remoteIp: string | null): string | null {
  if (!address) return null;
  const url = normalizeRpcUrl(address);
  if (!url) return null;
  const parsed = new URL(url);
  if (remoteIp && WILDCARD_HOSTS.has(parsed.hostname)) {
    const host = net.isIPv6(remoteIp) ? `[${remoteIp}]` : remoteIp;
    return normalizeRpcUrl(`${parsed.protocol}//${host}${parsed.port ? `:${parsed.port}` : ''}${parsed.pathname}`);
  }
  return url;
}
