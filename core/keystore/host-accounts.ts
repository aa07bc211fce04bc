import { ApiError, BootError } from '../errors.js';
import type { Wallet } from '../chain/keys.js';
import { Keystore, type KeystoreOptions } from './keystore.js';
import { KeystoreError, openKey, type KeystoreEntry, type KeystoreFile } from './keystore-file.js';
import { PASSPHRASE_FILE_VARIABLE, PASSPHRASE_VARIABLE } from './passphrase-source.js';

export { PASSPHRASE_FILE_VARIABLE, PASSPHRASE_VARIABLE } from './passphrase-source.js';

/**
 * The host's keystore accounts as tools see them (CoreTokens.accounts): opened once at start,
 * then either unlocked (the passphrase checked and kept in memory) or locked (files exist but no
 * passphrase was given). Tools ask it for the wallet of an `account` argument; every refusal
 * names the argument and says what to do, and no message ever holds a key or the passphrase.
 *
 * Start-up does not grow with the number of accounts (docs/keystore.md): `unlock` checks the
 * passphrase against one account (one scrypt, on libuv's thread pool) and decrypts nothing else;
 * each other account is decrypted on its first use, once, off the event loop, and kept.
 */

/** An account a tool may sign with. */
export interface HostAccount {
  entry: KeystoreEntry;
  wallet: Wallet;
}

const entryOf = (f: KeystoreFile): KeystoreEntry => ({ alias: f.alias, address: f.address, created_at: f.created_at });

export class HostAccounts {
  readonly keystore: Keystore;
  #passphrase: string | null = null;
  /** Accounts on disk at the last open (known without the passphrase), sealed. */
  #files: KeystoreFile[] = [];
  /** Accounts decrypted (or being decrypted), by lowercase alias: each is opened at most once. */
  readonly #opened = new Map<string, Promise<HostAccount>>();
  /** The passphrase check under way (a server may answer before it ends): account use waits for it. */
  #checking: Promise<void> = Promise.resolve();

  constructor(home: string, options: KeystoreOptions = {}) {
    this.keystore = new Keystore(home, options);
  }

  /** Whether any account file exists (read without the passphrase). */
  async hasAccounts(): Promise<boolean> {
    this.#files = await this.keystore.files();
    return this.#files.length > 0;
  }

  get unlocked(): boolean {
    return this.#passphrase !== null;
  }

  /** How many accounts the keystore holds (0 when locked). */
  get size(): number {
    return this.unlocked ? this.#files.length : 0;
  }

  /** The accounts (alias, address, creation time), in alias order; no secret. */
  entries(): KeystoreEntry[] {
    return this.#files.map(entryOf);
  }

  /**
   * Checks `passphrase` against one account (the first by alias) and keeps it for the others.
   * A wrong passphrase (or an altered file) is a BootError whose one line names the keystore
   * and the account, never the passphrase.
   */
  unlock(passphrase: string): Promise<void> {
    const checking = this.#unlock(passphrase);
    this.#checking = checking.catch(() => undefined);
    return checking;
  }

  async #unlock(passphrase: string): Promise<void> {
    this.#files = await this.keystore.files();
    const first = this.#files[0];
    if (first) {
      try {
        const wallet = await openKey(first, passphrase);
        this.#opened.set(first.alias.toLowerCase(), Promise.resolve({ entry: entryOf(first), wallet }));
      } catch (err) {
        if (err instanceof KeystoreError) {
          throw new BootError('keystore', `cannot unlock the keystore at ${this.keystore.dir}: ${err.message}; check ${PASSPHRASE_FILE_VARIABLE} or ${PASSPHRASE_VARIABLE}`);
        }
        throw err;
      }
    }
    this.#passphrase = passphrase;
  }

  /** The account named by an alias or address, for the tool argument `argument`; decrypted on first use. */
  async signer(aliasOrAddress: string, argument = 'account'): Promise<HostAccount> {
    await this.#checking;
    const passphrase = this.#passphrase;
    if (passphrase === null) throw this.#lockedError(argument);
    const file = this.#find(aliasOrAddress);
    if (!file) throw this.unknownAccount(aliasOrAddress, argument);
    const key = file.alias.toLowerCase();
    let opening = this.#opened.get(key);
    if (!opening) {
      opening = openKey(file, passphrase).then((wallet) => ({ entry: entryOf(file), wallet }));
      this.#opened.set(key, opening);
    }
    try {
      return await opening;
    } catch (err) {
      if (!(err instanceof KeystoreError)) throw err;
      // The host's passphrase opened another account: this file was written under another one, or altered.
      throw new ApiError(409, 'keystore_account_sealed', `${argument}: keystore account "${file.alias}" cannot be opened with the host's passphrase (${err.message}); re-import it with chain-keys under the keystore's passphrase`, { field: argument });
    }
  }

  /** The error for an alias or address the keystore does not hold: lists what it holds and points at list_accounts. */
  unknownAccount(aliasOrAddress: string, argument: string): ApiError {
    const known = this.#files.map((f) => f.alias);
    const shown = JSON.stringify(aliasOrAddress.slice(0, 80));
    return ApiError.badRequest(
      known.length
        ? `${argument}: no keystore account ${shown} on this host; its accounts are ${known.join(', ')} (the list_accounts tool shows alias, address and policy)`
        : `${argument}: no keystore account ${shown} on this host: ${this.#noAccountsHere()}`,
      { field: argument },
    );
  }

  /**
   * Where the host looked when it found no account, and how to point it elsewhere: the usual
   * cause is a relative home (the default `.chain`) read from another folder than the one
   * `chain-keys` ran in, as when an MCP client starts `chain-mcp` in its own folder.
   */
  #noAccountsHere(): string {
    return `the keystore at ${this.keystore.dir} has no accounts. chain-keys keeps them under <CHAIN_HOME>/keys of the folder it ran in (CHAIN_HOME default: .chain there); ` +
      'point this host at that home with an absolute CHAIN_HOME (or "home" in its config), e.g. "CHAIN_HOME": "/path/to/chainhost/.chain" in an MCP client\'s "env", ' +
      'or create one here with "chain-keys create --name <alias>"';
  }

  /** The sealed file of an alias (any case) or address (optionally 0x-prefixed), or null. */
  #find(aliasOrAddress: string): KeystoreFile | null {
    const wanted = aliasOrAddress.trim().toLowerCase();
    const address = /^0x[0-9a-f]{64}$/.test(wanted) ? wanted.slice(2) : wanted;
    return this.#files.find((f) => f.alias.toLowerCase() === wanted || f.address === address) ?? null;
  }

  /** The entry of an alias or address (no passphrase needed), or null. */
  find(aliasOrAddress: string): KeystoreEntry | null {
    const file = this.#find(aliasOrAddress);
    return file ? entryOf(file) : null;
  }

  /**
   * Stores a new key under `alias` with the host's passphrase (never a tool argument) and makes
   * it usable at once. Needs the keystore unlocked.
   */
  async store(alias: string, wallet: Wallet, argument = 'store_as'): Promise<KeystoreEntry> {
    await this.#checking;
    if (this.#passphrase === null) throw this.#lockedError(argument);
    let entry: KeystoreEntry;
    try {
      entry = await this.keystore.add(alias, wallet, this.#passphrase);
    } catch (err) {
      if (err instanceof KeystoreError) {
        const status = err.code === 'duplicate' ? 409 : 400;
        throw new ApiError(status, err.code === 'duplicate' ? 'conflict' : 'invalid_arguments', `${argument}: ${err.message}`, { field: argument });
      }
      throw err;
    }
    this.#files = await this.keystore.files();
    this.#opened.set(entry.alias.toLowerCase(), Promise.resolve({ entry, wallet }));
    return entry;
  }

  #lockedError(argument: string): ApiError {
    const how = `set ${PASSPHRASE_FILE_VARIABLE} (a file only the host's user can read) or ${PASSPHRASE_VARIABLE} in the host's environment (or start it on a terminal, not as an MCP stdio server, to be asked) and restart it`;
    const message = this.#files.length > 0
      ? `${argument}: the keystore at ${this.keystore.dir} is locked (${this.#files.length} account(s), no passphrase given at start); ${how}`
      : `${argument}: the host got no keystore passphrase and ${this.#noAccountsHere()}; to sign with it, ${how}`;
    return new ApiError(409, 'keystore_locked', message, { field: argument });
  }

  toJSON(): { unlocked: boolean; accounts: KeystoreEntry[] } {
    return { unlocked: this.unlocked, accounts: this.entries() };
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `HostAccounts(${this.unlocked ? 'unlocked' : 'locked'}: ${this.#files.map((e) => e.alias).join(', ')})`;
  }
}
