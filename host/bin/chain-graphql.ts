#!/usr/bin/env node
import { runCommand } from '../cli/run-command.js';

/**
 * The GraphQL sidecar on its own (upstream: PostGraphile over the BDS tables): read-only
 * PostGraphile-compatible GraphQL at POST http://127.0.0.1:5000/graphql by default, reading the
 * BDS database at CHAIN_BDS_DATABASE_URL (or `plugins.graphql.databaseUrl` in the config;
 * without one, the PGlite database under <home>/bds when no other process holds it). Beyond loopback it needs both --public-query and CHAIN_PUBLIC_QUERY_ENABLED=1 (spec 5.6).
 */
const port = (value: string): number | string => (/^\d+$/.test(value) ? Number(value) : value);

await runCommand({
  name: 'chain-graphql',
  description: 'Serve read-only GraphQL over the BDS database with PostGraphile names and shapes (POST /graphql).',
  stdio: 'config',
  http: 'never',
  options: (program) => {
    program
      .option('--host <address>', 'bind address (default 127.0.0.1; beyond loopback needs --public-query and CHAIN_PUBLIC_QUERY_ENABLED=1)')
      .option('--port <number>', 'port (default 5000, 0 picks a free port)', port)
      .option('--public-query', 'allow a non-loopback bind; also needs CHAIN_PUBLIC_QUERY_ENABLED=1');
  },
  plugins: ['graphql'],
  flagsToConfig: (opts) => ({
    'plugins.graphql.enabled': true,
    'plugins.graphql.host': opts.host,
    'plugins.graphql.port': opts.port,
    'plugins.graphql.publicQuery': opts.publicQuery === true ? true : undefined,
  }),
});
