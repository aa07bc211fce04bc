import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Host } from '../host.js';
import { createMcpServer } from './mcp-server.js';

export interface StdioSession {
  /** Resolves when the client goes away (stdin ends) or the session is closed. */
  readonly closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * Serves the host's tools as MCP over stdio. stdout belongs to the protocol: the host's logger
 * already writes to stderr, and console.log/info/debug of any plugin are sent to stderr too, so
 * a stray print cannot corrupt a JSON-RPC frame.
 */
export async function serveStdio(host: Host, io: { stdin?: Readable; stdout?: Writable } = {}): Promise<StdioSession> {
  const stdin = io.stdin ?? process.stdin;
  const stdout = io.stdout ?? process.stdout;
  if (stdout === process.stdout) keepConsoleOffStdout();
  // A client that exits mid-write would otherwise crash the process with EPIPE.
  stdout.on('error', (err) => host.log.warn('stdout closed while writing', { reason: err.message }));

  const server = createMcpServer(host, 'stdio');
  const transport = new StdioServerTransport(stdin, stdout);
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  transport.onerror = (err) => host.log.warn('malformed MCP message on stdin', { reason: err.message });
  server.server.onclose = () => resolveClosed();
  const onEnd = () => void server.close().finally(resolveClosed);
  stdin.once('end', onEnd);
  stdin.once('close', onEnd);
  await server.connect(transport);

  const close = async () => {
    stdin.off('end', onEnd);
    stdin.off('close', onEnd);
    await server.close();
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
