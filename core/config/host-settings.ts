/**
 * The host-wide settings every plugin may read (validated and merged from the config file,
 * the spec's environment variables and command-line flags). Secrets are kept out of
 * `describe()`-style output by the host.
 */
export interface HostSettings {
  home: string;
  chainId: string;
  nodeUrl: string;
  graphqlUrl: string;
  includeRaw: boolean;
  unsafeEnabled: boolean;
  publicQueryEnabled: boolean;
  tools: {
    stdio: boolean;
    http: null | {
      host: string;
      port: number;
      publishHost: string | null;
      token: string | null;
      corsOrigins: string[];
      bodyLimitBytes: number;
    };
    timeoutMs: number;
  };
  dexPlan: { ttlSeconds: number; maxEntries: number };
  bdsDatabaseUrl: string | null;
  /** A read-only copy of the BDS database (`CHAIN_BDS_READ_DATABASE_URL`) for the read paths; null reads the primary. */
  bdsReadDatabaseUrl?: string | null;
  /** Redis shared by replicas (`CHAIN_REDIS_URL`): the dashboard's limits; null keeps them per process. */
  redisUrl: string | null;
  /** The host's `/metrics` server, or null for none. */
  metrics: null | { host: string; port: number; publicQuery: boolean };
}
