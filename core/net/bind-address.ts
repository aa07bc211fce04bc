import net from 'node:net';

/** Loopback means 127.0.0.0/8, ::1, or `localhost`; wildcards (0.0.0.0, ::) and everything else are not. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (h === 'localhost') return true;
  if (net.isIPv4(h)) return h.startsWith('127.');
  if (net.isIPv6(h)) return h === '::1' || h === '0:0:0:0:0:0:0:1' || /^::ffff:127\./.test(h);
  return false;
}

/** Bracket raw IPv6 addresses in URLs (`http://[::1]:8100`). */
export function hostForUrl(host: string): string {
  return net.isIPv6(host) ? `[${host}]` : host;
}

export function urlFor(host: string, port: number, path = ''): string {
  return `http://${hostForUrl(host)}:${port}${path}`;
}
