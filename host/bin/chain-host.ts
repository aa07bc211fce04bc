#!/usr/bin/env node
import { runCommand } from '../cli/run-command.js';

// Boots whatever plugin set the config names, with the surfaces the config enables
// (`tools.http` → the HTTP tool server, `tools.stdio` → MCP on stdio, plus plugins' own servers).
await runCommand({
  name: 'chain-host',
  description: 'Run the chainhost plugin host with the plugins, servers and tool surfaces named in the config file.',
  stdio: 'config',
  http: 'config',
  requiresConfig: true,
});
