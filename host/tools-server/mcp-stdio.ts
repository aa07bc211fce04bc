import type { Readable, Writable } from 'node:stream';
import { serveStdio as serveMcpStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import type { Host } from '../host.js';
import { mcpServerFactory } from './mcp-surface.js';

export interface StdioSession {
  /** Resolves when the client goes away (stdin ends) or the session is closed. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * Serves the host's tools as MCP over stdio (SDK v2 `serveStdio`): the opening exchange pins
 * the connection's era — a 2025-era `initialize` (2025-06-18, 2025-11-25) or a 2026-07-28
 * `server/discover` with per-request envelopes — and one McpServer serves it for its life.
 * stdout belongs to the protocol: the host's logger already writes to stderr, and
 * console.log/info/debug of any plugin are sent to stderr too, so a stray print cannot corrupt
 * a JSON-RPC frame.
 */
export async function serveStdio(host: Host, io: { stdin?: Readable; stdout?: Writable } = {}): Promise<StdioSession> {
  const stdin = io.stdin ?? process.stdin;
  const stdout = io.stdout ?? process.stdout;
  if (stdout === process.stdout) keepConsoleOffStdout();
  // A client that exits mid-write would otherwise crash the process with EPIPE.
  stdout.on('error', (err) => host.log.warn('stdout closed while writing', { reason: err.message }));

  const factory = mcpServerFactory(host, 'stdio');
  const transport = new StdioServerTransport(stdin, stdout);
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  const handle = serveMcpStdio(({ era }) => factory.create(era), {
    transport,
    onerror: (err) => host.log.warn('malformed MCP message on stdin', { reason: err.message }),
  });
  const onEnd = () => void handle.close().finally(resolveClosed);
  stdin.once('end', onEnd);
  stdin.once('close', onEnd);

  const close = async () => {
    stdin.off('end', onEnd);
    stdin.off('close', onEnd);
    await handle.close();
    resolveClosed();
  };
  host.onStop(close);
  return { closed, close };
}

function keepConsoleOffStdout(): void {
  const toStderr = (...args: unknown[]) => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
}
