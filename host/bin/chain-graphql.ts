#!/usr/bin/env node
import { queryServiceCommand } from '../cli/query-service-command.js';
import { runCommand } from '../cli/run-command.js';

/**
 * The GraphQL sidecar on its own (upstream: PostGraphile over the BDS tables): read-only
 * PostGraphile-compatible GraphQL at POST http://127.0.0.1:5000/graphql by default, reading the
 * BDS database at CHAIN_BDS_DATABASE_URL (or `plugins.graphql.databaseUrl` in the config;
 * without one, the PGlite database under <home>/bds when no other process holds it). Beyond
 * loopback it needs both --public-query and CHAIN_PUBLIC_QUERY_ENABLED=1 (spec 5.6).
 */
await runCommand(queryServiceCommand({
  name: 'chain-graphql',
  description: 'Serve read-only GraphQL over the BDS database with PostGraphile names and shapes (POST /graphql).',
  plugin: 'graphql',
  defaultPort: 5000,
  variables: { host: 'CHAIN_GRAPHQL_HOST', port: 'CHAIN_GRAPHQL_PORT' },
  config: { 'plugins.graphql.enabled': true },
}));
