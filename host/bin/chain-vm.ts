#!/usr/bin/env node
import { Command } from 'commander';
import { registerRunCommand } from '../cli/chain-vm/run.js';

/**
 * `chain-vm`: the chain's contract engine on the command line. Each subcommand lives in
 * host/cli/chain-vm/<sub>.ts and registers itself here.
 */
const program = new Command('chain-vm')
  .description("The chain's contract VM (xian_vm_v1): run calls against modules given as IR")
  .configureOutput({ writeErr: (s) => process.stderr.write(s) });

registerRunCommand(program);

await program.parseAsync(process.argv);
