import net from 'node:net';
import { parseProxyEntry } from '../dashboard.config.js';

/**
 * The rate-limit key of a request: the peer address, unless the peer is a configured trusted
 * proxy — then `X-Forwarded-For` is read from the right, skipping trusted hops, and the first
 * untrusted address is the client. Without configured proxies the header is ignored: anyone
 * can write it, and believing it would let a client pick a fresh bucket per request.
 */
export class ClientAddressResolver {
  private readonly trusted: net.BlockList | null;

  constructor(trustedProxies: readonly string[]) {
    if (trustedProxies.length === 0) {
      this.trusted = null;
      return;
    }
    this.trusted = new net.BlockList();
    for (const entry of trustedProxies) {
      const parsed = parseProxyEntry(entry);
      if (!parsed) throw new TypeError(`trusted proxy ${JSON.stringify(entry)} is not an IP address or CIDR range`);
      this.trusted.addSubnet(parsed.address, parsed.prefix, parsed.family);
    }
  }

  get trustsProxies(): boolean {
    return this.trusted !== null;
  }

  resolve(peer: string | undefined, forwardedFor: string | string[] | undefined): string {
    const peerAddress = normalizeAddress(peer) ?? 'unknown';
    if (!this.trusted || !this.isTrusted(peerAddress) || !forwardedFor) return peerAddress;
    const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).split(',').map((h) => h.trim()).filter(Boolean);
    let client = peerAddress;
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = normalizeAddress(stripPort(hops[i]!));
      // A malformed entry ends the chain: the last trusted hop before it is all we know.
      if (!hop) break;
      client = hop;
      if (!this.isTrusted(hop)) break;
    }
    return client;
  }

  private isTrusted(address: string): boolean {
    const family = net.isIP(address);
    if (family === 0) return false;
    return this.trusted!.check(address, family === 4 ? 'ipv4' : 'ipv6');
  }
}

/** `::ffff:10.0.0.1` → `10.0.0.1`; null for anything that is not an IP address. */
export function normalizeAddress(address: string | undefined): string | null {
  if (!address) return null;
  const a = address.trim().replace(/^\[(.*)\]$/, '$1');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a);
  if (mapped) return mapped[1]!;
  return net.isIP(a) ? a.toLowerCase() : null;
}

/** `1.2.3.4:5678` and `[::1]:5678` as some proxies write them. */
function stripPort(hop: string): string {
  const v6 = /^\[([^\]]+)\](?::\d+)?$/.exec(hop);
  if (v6) return v6[1]!;
  const v4 = /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(hop);
  return v4 ? v4[1]! : hop;
}
