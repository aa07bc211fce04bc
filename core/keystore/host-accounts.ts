import { ApiError, BootError } from '../errors.js';
import type { Wallet } from '../chain/keys.js';
import { Keystore, type KeystoreOptions, type UnlockedAccounts } from './keystore.js';
import { KeystoreError, type KeystoreEntry } from './keystore-file.js';

/**
 * The host's keystore accounts as tools see them (CoreTokens.accounts): opened once at start,
 * then either unlocked (every account decrypted, the passphrase kept in memory so `store_as`
 * can add accounts) or locked (files exist but no passphrase was given). Tools ask it for the
 * wallet of an `account` argument; every refusal names the argument and says what to do, and
 * no message ever holds a key or the passphrase.
 */
export const PASSPHRASE_VARIABLE = 'CHAIN_KEYSTORE_PASSPHRASE';

/** An account a tool may sign with. */
export interface HostAccount {
  entry: KeystoreEntry;
  wallet: Wallet;
}

export class HostAccounts {
  readonly keystore: Keystore;
  #unlocked: UnlockedAccounts | null = null;
  #passphrase: string | null = null;
  /** Accounts on disk at the last open (known without the passphrase). */
  #stored: KeystoreEntry[] = [];

  constructor(home: string, options: KeystoreOptions = {}) {
    this.keystore = new Keystore(home, options);
  }

  /** Whether any account file exists (read without the passphrase). */
  async hasAccounts(): Promise<boolean> {
    this.#stored = await this.keystore.list();
    return this.#stored.length > 0;
  }

  get unlocked(): boolean {
    return this.#unlocked !== null;
  }

  /** How many accounts are unlocked (0 when locked). */
  get size(): number {
    return this.#unlocked?.size ?? 0;
  }

  /**
   * Decrypts every account with `passphrase`. A wrong passphrase (or an altered file) is a
   * BootError whose one line names the keystore and the account, never the passphrase.
   */
  async unlock(passphrase: string): Promise<void> {
    try {
      this.#unlocked = await this.keystore.unlock(passphrase);
    } catch (err) {
      if (err instanceof KeystoreError) {
        throw new BootError('keystore', `cannot unlock the keystore at ${this.keystore.dir}: ${err.message}; check ${PASSPHRASE_VARIABLE}`);
      }
      throw err;
    }
    this.#passphrase = passphrase;
    this.#stored = this.#unlocked.entries();
  }

  /** The account named by an alias or address, for the tool argument `argument`. */
  signer(aliasOrAddress: string, argument = 'account'): HostAccount {
    const unlocked = this.#unlocked;
    if (!unlocked) throw this.#lockedError(argument);
    const wanted = aliasOrAddress.trim();
    const found = unlocked.find(/^0x[0-9a-f]{64}$/i.test(wanted) ? wanted.slice(2) : wanted);
    if (found) return found;
    const known = unlocked.entries().map((e) => e.alias);
    const shown = JSON.stringify(aliasOrAddress.slice(0, 80));
    throw ApiError.badRequest(
      `${argument}: no keystore account ${shown} on this host; ${known.length ? `its accounts are ${known.join(', ')}` : 'it has none'} (chain-keys list shows alias and address)`,
      { field: argument },
    );
  }

  /**
   * Stores a new key under `alias` with the host's passphrase (never a tool argument) and makes
   * it usable at once. Needs the keystore unlocked.
   */
  async store(alias: string, wallet: Wallet, argument = 'store_as'): Promise<KeystoreEntry> {
    if (!this.#unlocked || this.#passphrase === null) throw this.#lockedError(argument);
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
    this.#unlocked.add({ entry, wallet });
    this.#stored = this.#unlocked.entries();
    return entry;
  }

  #lockedError(argument: string): ApiError {
    const how = `set ${PASSPHRASE_VARIABLE} in the host's environment (or start it on a terminal, not as an MCP stdio server, to be asked) and restart it`;
    const message = this.#stored.length > 0
      ? `${argument}: the keystore at ${this.keystore.dir} is locked (${this.#stored.length} account(s), no passphrase given at start); ${how}`
      : `${argument}: the keystore at ${this.keystore.dir} is locked: it has no accounts and the host got no passphrase; create one with "chain-keys create --name <alias>" or ${how}`;
    return new ApiError(409, 'keystore_locked', message, { field: argument });
  }

  toJSON(): { unlocked: boolean; accounts: KeystoreEntry[] } {
    return { unlocked: this.unlocked, accounts: this.#stored };
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `HostAccounts(${this.unlocked ? 'unlocked' : 'locked'}: ${this.#stored.map((e) => e.alias).join(', ')})`;
  }
}
