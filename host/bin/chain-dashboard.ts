#!/usr/bin/env node
import { runCommand } from '../cli/run-command.js';

/**
 * The dashboard on its own (upstream `xian-dashboard`): REST under /api, the /ws feed and the
 * explorer, reading the node at CHAIN_NODE_URL (or the devnet in-process when the config loads
 * it). Binds 127.0.0.1:8080 by default; beyond loopback it needs both --public-query and
 * CHAIN_PUBLIC_QUERY_ENABLED=1 (spec 5.6) and it never publishes the node RPC. Flags override
 * CHAIN_DASHBOARD_HOST/PORT, which override `plugins.dashboard` in the config file.
 */
const fromEnv = (name: string): string | undefined => process.env[name]?.trim() || undefined;

/** Digits become a number; anything else goes to the config validation, which names the value. */
const port = (value: string | undefined): number | string | undefined => (value !== undefined && /^\d+$/.test(value) ? Number(value) : value);

await runCommand({
  name: 'chain-dashboard',
  description: 'Serve the dashboard REST API (/api), WebSocket feed (/ws) and explorer (/explorer) for the node at CHAIN_NODE_URL.',
  stdio: 'config',
  http: 'never',
  options: (program) => {
    program
      .option('--host <address>', 'bind address (overrides CHAIN_DASHBOARD_HOST; default 127.0.0.1; beyond loopback needs --public-query and CHAIN_PUBLIC_QUERY_ENABLED=1)')
      .option('--port <number>', 'port (overrides CHAIN_DASHBOARD_PORT; default 8080, 0 picks a free port)', port)
      .option('--public-query', 'allow a non-loopback bind; also needs CHAIN_PUBLIC_QUERY_ENABLED=1; never publishes the node RPC');
  },
  plugins: ['dashboard'],
  flagsToConfig: (opts) => ({
    'plugins.dashboard.host': opts.host ?? fromEnv('CHAIN_DASHBOARD_HOST'),
    'plugins.dashboard.port': opts.port ?? port(fromEnv('CHAIN_DASHBOARD_PORT')),
    'plugins.dashboard.publicQuery': opts.publicQuery === true ? true : undefined,
  }),
});
