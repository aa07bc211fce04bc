/**
 * The host-wide settings every plugin may read (validated and merged from the config file,
 * the spec's environment variables and command-line flags). Secrets are kept out of
 * `describe()`-style output by the host. What only one plugin uses is that plugin's option
 * (`ctx.options`), not a setting here.
 */
export interface HostSettings {
  home: string;
  chainId: string;
  nodeUrl: string;
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
    /** Tool names or groups to list and serve (null: all), and those to leave out. */
    include: string[] | null;
    exclude: string[];
  };
  /** The host's `/metrics` server, or null for none. */
  metrics: null | { host: string; port: number; publicQuery: boolean };
}
