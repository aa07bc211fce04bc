#!/usr/bin/env node
import { numberArgument as int } from '../cli/number-argument.js';
import { runCommand } from '../cli/run-command.js';

/**
 * The embedded local node on its own, like Anvil or Hardhat: CometBFT's JSON-RPC and WebSocket
 * on --port (26657) and Prometheus metrics on --metrics-port (9108), with the dev accounts
 * printed at start. `--bds` also runs the block index in this process, so the node answers the
 * BDS query paths like a BDS-enabled node.
 */
await runCommand({
  name: 'chain-devnet',
  description: 'Run the embedded local node: CometBFT-shaped RPC on 26657, metrics on 9108, canonical contracts, funded dev accounts.',
  stdio: 'config',
  http: 'never',
  plugins: (opts) => (opts.bds ? ['devnet', 'bds'] : ['devnet']),
  options: (program) => {
    program
      .option('--home <dir>', 'data directory (overrides CHAIN_HOME; default .chain): chain data in <dir>/devnet, the --bds index in <dir>/bds')
      .option('--port <number>', 'node RPC port (default 26657; 0 picks a free port)', int)
      .option('--metrics-port <number>', 'Prometheus metrics port (default 9108; 0 picks a free port)', int)
      .option('--chain-id <id>', 'chain id (overrides CHAIN_ID; default chain-local-1)')
      .option('--block-time <ms>', 'block interval in ms; 0 = a block as soon as transactions arrive (default 0)', int)
      .option('--accounts <n>', 'number of funded dev accounts (default 10)', int)
      .option('--mnemonic <words>', 'mnemonic of the dev accounts (default: test test … junk)')
      .option('--reset', 'wipe the chain data and start from genesis')
      .option('--bds', 'also run the BDS block index in this process (PGlite under <home>/bds, or CHAIN_BDS_DATABASE_URL)');
  },
  flagsToConfig: (opts) => ({
    'chainId': opts.chainId,
    // The whole home, not only the chain data: the --bds index must live beside the chain it indexes.
    'home': opts.home,
    'plugins.devnet.port': opts.port,
    'plugins.devnet.metricsPort': opts.metricsPort,
    'plugins.devnet.blockTimeMs': opts.blockTime,
    'plugins.devnet.accounts': opts.accounts,
    'plugins.devnet.mnemonic': opts.mnemonic,
    'plugins.devnet.reset': opts.reset === true ? true : undefined,
  }),
});
