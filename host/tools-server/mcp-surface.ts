import type { ToolTransport } from '../../core/tools/tool.js';
import type { Host } from '../host.js';
import { InputRequiredConfirmations } from './mcp-confirmations.js';
import { McpServerFactory, pushElicitation } from './mcp-server.js';
import { mcpStateKey } from './mcp-state-key.js';

/**
 * The McpServer factory every MCP transport of the host uses: tools for both eras, each with
 * its way of asking a person — 2025-era connections get `elicitation/create` on the call's
 * stream, 2026-07-28 requests an `input_required` result sealed with the key of CHAIN_HOME.
 */
export function mcpServerFactory(host: Host, transport: ToolTransport): McpServerFactory {
  const confirmations = new InputRequiredConfirmations(mcpStateKey(host.config.settings.home));
  return new McpServerFactory(host, transport, {
    legacy: { asker: pushElicitation },
    modern: { asker: confirmations, options: { requestState: { verify: confirmations.codec.verify } } },
  });
}
