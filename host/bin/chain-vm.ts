#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { registerCompileCommand } from '../cli/chain-vm/compile.js';
import { registerRunCommand } from '../cli/chain-vm/run.js';

/**
 * `chain-vm <command>`: the chain's contract toolchain on the command line (compile source to the
 * xian_ir_v1 IR, run a call in the xian_vm_v1 VM). Each subcommand lives in
 * host/cli/chain-vm/<sub>.ts and registers itself here. Results go to stdout; a refused input
 * exits 1, a usage error 2.
 */
const program = new Command('chain-vm')
  .description("The chain's contract toolchain: compile contract source to the xian_ir_v1 IR and run calls in the xian_vm_v1 VM.")
  .exitOverride()
  .configureOutput({ writeOut: (s) => process.stdout.write(s), writeErr: (s) => process.stderr.write(s) });

registerCompileCommand(program);
registerRunCommand(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (!(error instanceof CommanderError)) throw error;
  // --help and --version end here with code 0; everything else commander refuses is a usage error.
  process.exitCode = error.exitCode === 0 ? 0 : 2;
}
