#!/usr/bin/env node
import { runCommand } from '../cli/run-command.js';

// The HTTP tool API (GET /tools, POST /tools/{name}) and MCP over Streamable HTTP at /mcp.
await runCommand({
  name: 'chain-mcp-http',
  description: 'Serve the chain tools over HTTP (GET /tools, POST /tools/{name}, GET /health) and MCP Streamable HTTP at /mcp.',
  stdio: 'config',
  http: 'always',
  httpFlags: true,
  defaultToolPlugins: true,
});
