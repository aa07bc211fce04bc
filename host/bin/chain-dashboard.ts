#!/usr/bin/env node
import { queryServiceCommand } from '../cli/query-service-command.js';
import { runCommand } from '../cli/run-command.js';

/**
 * The dashboard on its own (upstream `xian-dashboard`): REST under /api, the /ws feed and the
 * explorer, reading the node at CHAIN_NODE_URL (or the devnet in-process when the config loads
 * it). Binds 127.0.0.1:8080 by default; beyond loopback it needs both --public-query and
 * CHAIN_PUBLIC_QUERY_ENABLED=1 (spec 5.6) and it never publishes the node RPC. Flags override
 * CHAIN_DASHBOARD_HOST/PORT, which override `plugins.dashboard` in the config file.
 */
await runCommand(queryServiceCommand({
  name: 'chain-dashboard',
  description: 'Serve the dashboard REST API (/api), WebSocket feed (/ws) and explorer (/explorer) for the node at CHAIN_NODE_URL.',
  plugin: 'dashboard',
  defaultPort: 8080,
  variables: { host: 'CHAIN_DASHBOARD_HOST', port: 'CHAIN_DASHBOARD_PORT' },
  publicQueryNote: '; never publishes the node RPC',
}));
