import { parseFlag } from '../capability.js';

/**
 * The spec's environment variables (part 2) and where each lands in the config. Parsing here
 * only converts text to the target type; range checks stay in the zod schema so the error
 * names the variable and its value either way.
 */
export interface EnvBinding {
  variable: string;
  path: string[];
  type: 'string' | 'integer' | 'flag' | 'list';
  secret?: boolean;
}

export const ENV_BINDINGS: readonly EnvBinding[] = [
  { variable: 'CHAIN_HOME', path: ['home'], type: 'string' },
  { variable: 'CHAIN_ID', path: ['chainId'], type: 'string' },
  { variable: 'CHAIN_NODE_URL', path: ['node', 'url'], type: 'string' },
  { variable: 'CHAIN_GRAPHQL', path: ['graphqlUrl'], type: 'string' },
  { variable: 'CHAIN_INCLUDE_RAW', path: ['includeRaw'], type: 'flag' },
  { variable: 'CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS', path: ['tools', 'unsafe'], type: 'flag' },
  { variable: 'CHAIN_PUBLIC_QUERY_ENABLED', path: ['publicQueryEnabled'], type: 'flag' },
  { variable: 'HTTP_HOST', path: ['tools', 'http', 'host'], type: 'string' },
  { variable: 'HTTP_PORT', path: ['tools', 'http', 'port'], type: 'integer' },
  { variable: 'HTTP_PUBLISH_HOST', path: ['tools', 'http', 'publishHost'], type: 'string' },
  { variable: 'CHAIN_MCP_HTTP_TOKEN', path: ['tools', 'http', 'token'], type: 'string', secret: true },
  { variable: 'CHAIN_MCP_HTTP_CORS_ORIGINS', path: ['tools', 'http', 'corsOrigins'], type: 'list' },
  { variable: 'CHAIN_MCP_DEX_PLAN_TTL_SECONDS', path: ['dexPlan', 'ttlSeconds'], type: 'integer' },
  { variable: 'CHAIN_MCP_DEX_PLAN_MAX_ENTRIES', path: ['dexPlan', 'maxEntries'], type: 'integer' },
  { variable: 'CHAIN_BDS_DATABASE_URL', path: ['bds', 'databaseUrl'], type: 'string', secret: true },
  { variable: 'CHAIN_BDS_READ_DATABASE_URL', path: ['bds', 'readDatabaseUrl'], type: 'string', secret: true },
  { variable: 'CHAIN_REDIS_URL', path: ['redisUrl'], type: 'string', secret: true },
];

/** Converts an environment value; returns the raw text when it cannot be converted so validation reports it. */
export function convertEnvValue(binding: EnvBinding, raw: string): unknown {
  switch (binding.type) {
    case 'string':
      return raw;
    case 'integer':
      return /^\s*-?\d+\s*$/.test(raw) ? Number(raw.trim()) : raw;
    case 'flag': {
      const flag = parseFlag(raw);
      return flag === undefined ? raw : flag;
    }
    case 'list':
      return raw.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
  }
}
