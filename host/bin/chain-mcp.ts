#!/usr/bin/env node
import { runCommand } from '../cli/run-command.js';

// MCP over stdio: stdout carries only the protocol; the banner and logs go to stderr.
await runCommand({
  name: 'chain-mcp',
  description: 'Serve the chain tools to an MCP client over stdio. Loads the config\'s plugins, or the built-in default tool plugins when it names none.',
  stdio: 'always',
  http: 'never',
  defaultToolPlugins: true,
});
