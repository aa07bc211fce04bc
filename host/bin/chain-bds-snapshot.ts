#!/usr/bin/env node
import { serverVersion } from '../tools-server/server-info.js';
import { Command } from 'commander';
import { resolve } from 'node:path';
import { createProgress } from '../../plugins/bds/maintenance/progress.js';
import { exportSnapshot } from '../../plugins/bds/maintenance/snapshot-export.js';
import { defaultSnapshotName } from '../../plugins/bds/maintenance/snapshot-format.js';
import { importSnapshot } from '../../plugins/bds/maintenance/snapshot-import.js';
import { maxIndexedHeight } from '../../plugins/bds/reads/block-reads.js';
import { runBdsMaintenance } from '../cli/bds-maintenance.js';

/**
 * `chain-bds-snapshot export --output-path <file>` / `import --input-path <archive>` (spec part 4):
 * indexed history only (no application state, consensus data or validator configuration). Import
 * verifies the archive and checks it against the configured RPC source before it writes, and is
 * refused while a live BDS writer holds the database.
 */
const NAME = 'chain-bds-snapshot';

const program = new Command(NAME)
  .version(serverVersion(), '-v, --version')
  .description('Export or import the BDS indexed history as a versioned, compressed archive.')
  .option('-c, --config <file>', 'config file (default: searched in the working directory)')
  .configureOutput({ writeOut: (s) => process.stdout.write(s), writeErr: (s) => process.stderr.write(s) });

program
  .command('export')
  .description('write every BDS table to a gzip JSON-lines archive with a manifest (row counts, checksums)')
  .option('--output-path <file>', 'archive to write (default ./chain-bds-snapshot-h<height>-<time>.jsonl.gz)')
  .option('--force', 'overwrite an existing file')
  .action((o: { outputPath?: string; force?: boolean }) => runBdsMaintenance({ name: NAME, config: program.opts().config }, async (s) => {
    const output = resolve(o.outputPath ?? defaultSnapshotName(await maxIndexedHeight(s.service.db.knex).catch(() => null)));
    const r = await exportSnapshot({ db: s.service.db, owners: s.service.indexers(), outputPath: output, force: o.force, progress: createProgress() });
    process.stdout.write(`BDS snapshot exported: output_path=${r.output_path} indexed_height=${r.indexed_height ?? ''} rows=${r.total_rows}\n`);
  }));

program
  .command('import')
  .description('verify an archive, check it against the configured RPC source, then replace the BDS tables with it')
  .requiredOption('--input-path <archive>', 'archive written by export')
  .action((o: { inputPath: string }) => runBdsMaintenance({ name: NAME, config: program.opts().config }, async (s, say) => {
    const r = await importSnapshot({
      db: s.service.db, owners: s.service.indexers(), spool: s.service.spool, inputPath: resolve(o.inputPath),
      source: s.source, chainId: () => s.sourceNode.chainId(), progress: createProgress(), log: say,
    });
    process.stdout.write(`BDS snapshot imported: snapshot_path=${r.snapshot_path} indexed_height=${r.indexed_height ?? ''} rows=${r.total_rows}\n`);
  }));

await program.parseAsync(process.argv);
