import { BootError } from '../../core/errors.js';
import type { HostSettings } from '../../core/config/host-settings.js';
import type { ServerDeclaration } from '../../core/routes.js';
import { isLoopbackHost } from '../../core/net/bind-address.js';

/**
 * Spec part 5 at bind time: the tool server needs CHAIN_MCP_HTTP_TOKEN when unsafe tools are
 * on or it binds beyond loopback, and allows no wildcard CORS; a query service binds beyond
 * loopback only with both `--public-query` and CHAIN_PUBLIC_QUERY_ENABLED=1.
 */
export function checkBindRules(server: ServerDeclaration, settings: HostSettings): void {
  const loopback = isLoopbackHost(server.host);
  if (server.kind === 'tools') {
    const http = settings.tools.http;
    if (!http?.token) {
      if (settings.unsafeEnabled) {
        throw new BootError('unsafe_bind', 'CHAIN_MCP_HTTP_TOKEN must be set when unsafe tools are enabled (CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS) on the HTTP tool server');
      }
      if (!loopback) {
        throw new BootError('unsafe_bind', `CHAIN_MCP_HTTP_TOKEN must be set to bind the HTTP tool server to ${server.host}, which is not a loopback address`);
      }
    }
    if (http?.corsOrigins.some((o) => o.trim() === '*')) {
      throw new BootError('unsafe_bind', 'CHAIN_MCP_HTTP_CORS_ORIGINS must list exact origins; "*" is refused');
    }
    return;
  }
  if (!loopback && !(server.publicQuery && settings.publicQueryEnabled)) {
    // Name what is missing in the terms of the command at hand: a config key for chain-host, the flag where the command has one.
    const key = server.name === 'metrics' ? 'metrics.publicQuery' : `plugins.${server.name}.publicQuery`;
    const missing = [
      server.publicQuery ? null : `${key}: true in the config (or the --public-query flag of chain-${server.name}, where that command serves it)`,
      settings.publicQueryEnabled ? null : 'CHAIN_PUBLIC_QUERY_ENABLED=1 in the environment',
    ].filter(Boolean).join(' and ');
    throw new BootError('unsafe_bind',
      `${server.name} binds ${server.host}, which is not loopback; public query publishing needs both its publicQuery option and CHAIN_PUBLIC_QUERY_ENABLED=1: set ${missing}`);
  }
}
