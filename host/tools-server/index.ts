import Router from '@koa/router';
import type { HttpServerLimits } from '../../core/http/server-limits.js';
import { isLoopbackHost } from '../../core/net/bind-address.js';
import type { Host } from '../host.js';
import { CallLimit } from './call-limit.js';
import { directToolCall } from './direct-tool-call.js';
import { toolsHttpGate, toolsHttpGuards } from './http-guards.js';
import { McpHttpEndpoint } from './mcp-http.js';
import { DEFAULT_MCP_SESSION_POLICY, type McpSessionPolicy } from './mcp-session-store.js';
import { httpToolCall } from './tool-call.js';
import { addToolsHttpRoutes } from './tools-http-routes.js';

export { serveStdio, type StdioSession } from './mcp-stdio.js';
export { createMcpServer, McpServerFactory } from './mcp-server.js';
export { mcpServerFactory } from './mcp-surface.js';
export { SERVER_NAME, serverVersion } from './server-info.js';

/** The server name the tool surfaces are declared under (plugins add routes to it by this name). */
export const TOOLS_SERVER = 'tools';

export interface ToolSurfaceOptions {
  /** Tool calls in flight on the HTTP server (POST /tools/{name} and POST /mcp) before 429. */
  maxInFlightCalls?: number;
  mcpSessions?: Partial<McpSessionPolicy>;
  /** Header and body timeouts and the per-client cap of the tool server (defaults: DEFAULT_HTTP_SERVER_LIMITS). */
  httpLimits?: Partial<HttpServerLimits>;
}

export const DEFAULT_MAX_IN_FLIGHT_CALLS = 256;

/**
 * A Host `surfaces` entry: when `tools.http` is configured (HTTP_HOST/HTTP_PORT, or
 * chain-mcp-http), declares the `tools` server with its guards and routes — `/health`,
 * `/tools`, `/tools/{name}` and MCP Streamable HTTP at `/mcp`. The host checks the bind rules
 * (token when unsafe or non-loopback, no `*` CORS) before it listens.
 */
export function addToolSurfaces(host: Host, options: ToolSurfaceOptions = {}): void {
  const http = host.config.settings.tools.http;
  if (!http) return;
  const unsafe = host.config.settings.unsafeEnabled;
  const gate = toolsHttpGate({
    bindHost: http.host,
    publishHost: http.publishHost,
    token: http.token,
    corsOrigins: http.corsOrigins,
    tokenRequired: unsafe || !isLoopbackHost(http.host),
  });
  const limit = new CallLimit(options.maxInFlightCalls ?? DEFAULT_MAX_IN_FLIGHT_CALLS);
  const mcp = new McpHttpEndpoint(host, { ...DEFAULT_MCP_SESSION_POLICY, ...options.mcpSessions }, http.bodyLimitBytes, limit);
  // One router for the host's own paths: every router on a server is one more match per request.
  const router = new Router();
  const call = httpToolCall(host.invoker, limit, http.bodyLimitBytes);
  addToolsHttpRoutes(router, host, { call });
  mcp.addRoutes(router);
  host.declareServer({
    name: TOOLS_SERVER,
    kind: 'tools',
    host: http.host,
    port: http.port,
    bodyLimitBytes: http.bodyLimitBytes,
    limits: options.httpLimits,
    middleware: [toolsHttpGuards(gate)],
    directHandler: directToolCall(gate, call, host.log.child(TOOLS_SERVER)),
  }, [{ server: TOOLS_SERVER, id: 'host:tools', capability: 'read', router }]);
  host.onStop(() => mcp.close());
}

/** `addToolSurfaces` with options, in the shape Host.create's `surfaces` expects. */
export function toolSurfaces(options: ToolSurfaceOptions = {}): (host: Host) => void {
  return (host) => addToolSurfaces(host, options);
}
