#!/usr/bin/env node
import { serverVersion } from '../tools-server/server-info.js';
import { Command, InvalidArgumentError } from 'commander';
import { createProgress } from '../../plugins/bds/maintenance/progress.js';
import { reindex } from '../../plugins/bds/maintenance/reindex.js';
import { runBdsMaintenance } from '../cli/bds-maintenance.js';

/**
 * `chain-bds-reindex` (spec part 4): rebuilds the BDS index from a node's RPC. The normal BDS
 * writer must be stopped (a live writer holding the database is refused); the configured plugins
 * are loaded but not started, so every contributed indexer runs. Exits non-zero with one line on
 * failure; the last line on success is `BDS reindex complete: indexed_height=… range=…-… latest_height=…`.
 */
const NAME = 'chain-bds-reindex';
function height(value: string, flag: string): number {
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) throw new InvalidArgumentError(`${flag} must be a non-negative integer, got "${value}"`);
  return Number(value);
}

const program = new Command(NAME)
  .version(serverVersion(), '-v, --version')
  .description('Rebuild the BDS index from a node RPC: by default from the indexed height + 1 to the source\'s latest height.')
  .option('-c, --config <file>', 'config file (default: searched in the working directory); its plugins contribute their indexers')
  .option('--rpc-url <url>', 'source node RPC (default: the configured node, or the in-process devnet)')
  .option('--start-height <n>', 'first height (default: indexed height + 1)', (v) => height(v, '--start-height'))
  .option('--end-height <n>', "last height (default and cap: the source's latest height)", (v) => height(v, '--end-height'))
  .option('--reset', 'drop the BDS schema and clear the local spool, then rebuild from genesis (only after the source passed its checks: range served, chain id and hashes)')
  .option('--batch-blocks <n>', 'blocks per database transaction (default 64)', (v) => height(v, '--batch-blocks'))
  .allowExcessArguments(false)
  .configureOutput({ writeOut: (s) => process.stdout.write(s), writeErr: (s) => process.stderr.write(s) });
program.parse(process.argv);
const opts = program.opts<{ config?: string; rpcUrl?: string; startHeight?: number; endHeight?: number; reset?: boolean; batchBlocks?: number }>();

await runBdsMaintenance({ name: NAME, config: opts.config, rpcUrl: opts.rpcUrl }, async (session, say) => {
  if (session.trusted) say(`checking every block of ${opts.rpcUrl} against the local node`);
  const r = await reindex({
    db: session.service.db,
    indexers: session.service.indexers(),
    spool: session.service.spool,
    source: session.source,
    trusted: session.trusted,
    startHeight: opts.startHeight,
    endHeight: opts.endHeight,
    reset: opts.reset,
    batchMaxBlocks: opts.batchBlocks,
    progress: createProgress(),
    log: say,
    chainIds: { source: () => session.sourceNode.chainId(), trusted: session.trustedNode ? () => session.trustedNode!.chainId() : null },
  });
  process.stdout.write(`BDS reindex complete: indexed_height=${r.indexed_height} range=${r.start}-${r.end} latest_height=${r.latest_height}\n`);
});
