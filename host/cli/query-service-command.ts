import { numberArgument } from './number-argument.js';
import type { CommandSpec } from './run-command.js';

export interface QueryServiceCommand {
  name: string;
  description: string;
  /** The plugin the command serves: always loaded; `--host`, `--port` and `--public-query` set its options. */
  plugin: string;
  defaultPort: number;
  /** The plugin's variables for the bind address and port (its env bindings read them; the flags win over them), named in the help. */
  variables?: { host: string; port: string };
  /** Added to `--public-query`'s help. */
  publicQueryNote?: string;
  /** Further config paths the command always sets. */
  config?: Record<string, unknown>;
}

/**
 * A standalone query service (`chain-dashboard`, `chain-graphql`): one plugin on a server of
 * its own, bound to loopback unless both `--public-query` and CHAIN_PUBLIC_QUERY_ENABLED=1.
 */
export function queryServiceCommand(c: QueryServiceCommand): CommandSpec {
  const overrides = (variable: string | undefined) => (variable ? `overrides ${variable}; ` : '');
  return {
    name: c.name,
    description: c.description,
    stdio: 'config',
    http: 'never',
    plugins: [c.plugin],
    options: (program) => {
      program
        .option('--host <address>', `bind address (${overrides(c.variables?.host)}default 127.0.0.1; beyond loopback needs --public-query and CHAIN_PUBLIC_QUERY_ENABLED=1)`)
        .option('--port <number>', `port (${overrides(c.variables?.port)}default ${c.defaultPort}, 0 picks a free port)`, numberArgument)
        .option('--public-query', `allow a non-loopback bind; also needs CHAIN_PUBLIC_QUERY_ENABLED=1${c.publicQueryNote ?? ''}`);
    },
    flagsToConfig: (opts) => ({
      ...c.config,
      [`plugins.${c.plugin}.host`]: opts.host,
      [`plugins.${c.plugin}.port`]: opts.port,
      [`plugins.${c.plugin}.publicQuery`]: opts.publicQuery === true ? true : undefined,
    }),
  };
}
