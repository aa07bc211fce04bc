#!/usr/bin/env node
import { serverVersion } from '../tools-server/server-info.js';
import { Command, InvalidArgumentError } from 'commander';
import { normalizeMnemonic, mnemonicProblem, deriveFromMnemonic } from '../../core/chain/hd-wallet.js';
import { isPrivateKey, Wallet } from '../../core/chain/keys.js';
import { loadConfig } from '../../core/config/load-config.js';
import { BootError } from '../../core/errors.js';
import { Keystore } from '../../core/keystore/keystore.js';
import { KeystoreError } from '../../core/keystore/keystore-file.js';
import { keystorePassphrase, PASSPHRASE_VARIABLE, readStandardInput, SecretInputError } from '../cli/secret-input.js';

/**
 * `chain-keys create|import|list|remove`: the host's encrypted accounts under `<home>/keys/`
 * (docs/keystore.md). Keys and mnemonics are read from standard input, passphrases from
 * CHAIN_KEYSTORE_PASSPHRASE or the terminal; nothing secret is ever printed. Results go to
 * stdout, errors are one `chain-keys: error: …` line on stderr and exit 1.
 */
const NAME = 'chain-keys';

const program = new Command(NAME)
  .version(serverVersion(), '-v, --version')
  .description('Manage the host-held encrypted accounts under <CHAIN_HOME>/keys (scrypt + AES-256-GCM).')
  .option('-c, --config <file>', 'config file, for `home` (default: searched in the working directory; CHAIN_HOME overrides)')
  .configureOutput({ writeOut: (s) => process.stdout.write(s), writeErr: (s) => process.stderr.write(s) })
  .addHelpText('after', `
The passphrase comes from ${PASSPHRASE_VARIABLE} or, on a terminal, a prompt; one passphrase
opens every account of a keystore. Private keys and mnemonics are read from standard input only.`);

async function keystore(): Promise<Keystore> {
  const loaded = await loadConfig({ configPath: program.opts().config });
  return new Keystore(loaded.settings.home);
}

async function run(work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (err) {
    const known = err instanceof KeystoreError || err instanceof SecretInputError || err instanceof BootError;
    process.stderr.write(`${NAME}: error: ${known ? (err as Error).message : err instanceof Error ? err.stack : String(err)}\n`);
    process.exitCode = 1;
  }
}

const index = (value: string): number => {
  if (!/^\d{1,9}$/.test(value)) throw new InvalidArgumentError('must be an account index 0..999999999');
  return Number(value);
};

program.command('create')
  .description('generate a new account and store it encrypted; prints its address')
  .requiredOption('--name <alias>', 'account name (letters, digits, _ and -)')
  .action((o: { name: string }) => run(async () => {
    const store = await keystore();
    const passphrase = await keystorePassphrase({ confirm: (await store.list()).length === 0 });
    const entry = await store.add(o.name, Wallet.generate(), passphrase);
    process.stdout.write(`created ${entry.alias} ${entry.address}\n`);
  }));

program.command('import')
  .description('store an existing key, read from standard input: a 64-hex private key, or a mnemonic (with --index)')
  .requiredOption('--name <alias>', 'account name (letters, digits, _ and -)')
  .option('--index <n>', 'account index when standard input is a mnemonic (the official wallets\' derivation; default 0)', index)
  .action((o: { name: string; index?: number }) => run(async () => {
    const store = await keystore();
    if (process.stdin.isTTY) process.stderr.write('paste the private key or mnemonic, then Ctrl-D:\n');
    const secret = await readStandardInput();
    let wallet: Wallet;
    if (isPrivateKey(secret)) {
      if (o.index !== undefined) throw new SecretInputError('--index applies to a mnemonic; standard input holds a private key');
      wallet = Wallet.fromPrivateKey(secret);
    } else {
      const mnemonic = normalizeMnemonic(secret);
      const problem = mnemonicProblem(mnemonic);
      // The problem names counts and positions only, never the text: it may be a mistyped key.
      if (problem) throw new SecretInputError(`standard input is neither a 64-hex private key nor a valid mnemonic (${problem})`);
      wallet = Wallet.fromPrivateKey(deriveFromMnemonic(mnemonic, { index: o.index ?? 0 }).privateKey);
    }
    const passphrase = await keystorePassphrase({ confirm: (await store.list()).length === 0 });
    const entry = await store.add(o.name, wallet, passphrase);
    process.stdout.write(`imported ${entry.alias} ${entry.address}\n`);
  }));

program.command('list')
  .description('every stored account: alias, address, creation time (no passphrase needed)')
  .action(() => run(async () => {
    for (const e of await (await keystore()).list()) process.stdout.write(`${e.alias}\t${e.address}\t${e.created_at}\n`);
  }));

program.command('remove')
  .description('delete an account\'s file (its key is gone unless you hold a copy)')
  .requiredOption('--name <alias>', 'account name')
  .action((o: { name: string }) => run(async () => {
    const entry = await (await keystore()).remove(o.name);
    process.stdout.write(`removed ${entry.alias} ${entry.address}\n`);
  }));

await program.parseAsync(process.argv);
