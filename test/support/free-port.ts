import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A loopback port nothing listens on now (just released by the OS): for a server to take, or as a port that refuses. */
export async function freePort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
