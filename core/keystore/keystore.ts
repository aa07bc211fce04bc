import { chmod, mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Wallet } from '../chain/keys.js';
import {
  checkAlias, checkPassphrase, DEFAULT_SCRYPT, KeystoreError, openKey, parseKeystoreFile, sealKey,
  type KeystoreEntry, type KeystoreFile, type ScryptParams,
} from './keystore-file.js';

/**
 * The host's encrypted accounts: one file per account under `<home>/keys/` (folder mode 0700,
 * files 0600, written atomically), all under one passphrase. Listing reads no secret; unlocking
 * decrypts every file and holds the keys only as `Wallet`s, whose JSON and inspection show the
 * address alone.
 */
export const KEYSTORE_DIR = 'keys';
const FILE_SUFFIX = '.json';

export interface KeystoreOptions {
  /** scrypt cost for new files (tests lower it; files record their own). */
  scrypt?: ScryptParams;
}

export class Keystore {
  readonly dir: string;
  readonly #scrypt: ScryptParams;

  constructor(home: string, options: KeystoreOptions = {}) {
    this.dir = path.join(home, KEYSTORE_DIR);
    this.#scrypt = options.scrypt ?? DEFAULT_SCRYPT;
  }

  /** Every account (alias, address, created_at), sorted by alias; no passphrase needed. */
  async list(): Promise<KeystoreEntry[]> {
    const files = await this.#readAll();
    return files.map(({ alias, address, created_at }) => ({ alias, address, created_at }));
  }

  /**
   * Stores `wallet` under `alias`. The passphrase must open the accounts already stored (one
   * passphrase per keystore), and neither the alias nor the address may be taken.
   */
  async add(alias: string, wallet: Wallet, passphrase: string): Promise<KeystoreEntry> {
    checkAlias(alias);
    checkPassphrase(passphrase);
    const existing = await this.#readAll();
    if (existing.some((f) => f.alias.toLowerCase() === alias.toLowerCase())) throw new KeystoreError('duplicate', `keystore account "${alias}" already exists`);
    const sameAddress = existing.find((f) => f.address === wallet.address);
    if (sameAddress) throw new KeystoreError('duplicate', `address ${wallet.address} is already stored as "${sameAddress.alias}"`);
    if (existing[0]) await openKey(existing[0], passphrase);
    const file = await sealKey(wallet, alias, passphrase, this.#scrypt);
    await this.#write(file);
    return { alias: file.alias, address: file.address, created_at: file.created_at };
  }

  /** Deletes one account's file. */
  async remove(alias: string): Promise<KeystoreEntry> {
    const file = await this.#find(alias);
    await rm(this.#pathOf(file.alias));
    return { alias: file.alias, address: file.address, created_at: file.created_at };
  }

  /** Every account file as stored (sealed: reading them needs no passphrase and decrypts nothing). */
  files(): Promise<KeystoreFile[]> {
    return this.#readAll();
  }

  /** Decrypts every account; a wrong passphrase fails on the first file, naming no secret. */
  async unlock(passphrase: string): Promise<UnlockedAccounts> {
    const files = await this.#readAll();
    const wallets = await Promise.all(files.map(async (f) => ({ entry: { alias: f.alias, address: f.address, created_at: f.created_at }, wallet: await openKey(f, passphrase) })));
    return new UnlockedAccounts(wallets);
  }

  async #find(alias: string): Promise<KeystoreFile> {
    const wanted = alias.toLowerCase();
    const file = (await this.#readAll()).find((f) => f.alias.toLowerCase() === wanted);
    if (!file) throw new KeystoreError('not_found', `no keystore account named ${JSON.stringify(alias.slice(0, 80))} in ${this.dir}`);
    return file;
  }

  async #readAll(): Promise<KeystoreFile[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    const files: KeystoreFile[] = [];
    for (const name of names.filter((n) => n.endsWith(FILE_SUFFIX)).sort()) {
      const where = path.join(this.dir, name);
      let parsed: unknown;
      try {
        parsed = JSON.parse(await readFile(where, 'utf8'));
      } catch {
        throw new KeystoreError('invalid_file', `${where}: not valid JSON`);
      }
      const file = parseKeystoreFile(parsed, where);
      if (`${file.alias}${FILE_SUFFIX}` !== name) throw new KeystoreError('invalid_file', `${where}: records the account "${file.alias}"; the file name must be ${file.alias}${FILE_SUFFIX}`);
      files.push(file);
    }
    return files;
  }

  #pathOf(alias: string): string {
    return path.join(this.dir, `${alias}${FILE_SUFFIX}`);
  }

  async #write(file: KeystoreFile): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await chmod(this.dir, 0o700);
    const target = this.#pathOf(file.alias);
    const temp = `${target}.${process.pid}.tmp`;
    // Created 0600 from the first byte, fsync'd, then renamed: a crash leaves the old state or the new, never half a key.
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(`${JSON.stringify(file, null, 2)}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  }
}

/** The unlocked accounts, by alias (case-insensitive) or address. */
export class UnlockedAccounts {
  readonly #byAlias = new Map<string, { entry: KeystoreEntry; wallet: Wallet }>();
  readonly #byAddress = new Map<string, { entry: KeystoreEntry; wallet: Wallet }>();

  constructor(accounts: readonly { entry: KeystoreEntry; wallet: Wallet }[]) {
    for (const account of accounts) {
      this.#byAlias.set(account.entry.alias.toLowerCase(), account);
      this.#byAddress.set(account.entry.address, account);
    }
  }

  get size(): number {
    return this.#byAlias.size;
  }

  /** Adds an account just stored (`store_as`), so it signs without a restart. */
  add(account: { entry: KeystoreEntry; wallet: Wallet }): void {
    this.#byAlias.set(account.entry.alias.toLowerCase(), account);
    this.#byAddress.set(account.entry.address, account);
  }

  entries(): KeystoreEntry[] {
    return [...this.#byAlias.values()].map((a) => a.entry);
  }

  /** The wallet of an alias or address, or null. */
  find(aliasOrAddress: string): { entry: KeystoreEntry; wallet: Wallet } | null {
    return this.#byAlias.get(aliasOrAddress.toLowerCase()) ?? this.#byAddress.get(aliasOrAddress.toLowerCase()) ?? null;
  }

  toJSON(): KeystoreEntry[] {
    return this.entries();
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `UnlockedAccounts(${this.entries().map((e) => e.alias).join(', ')})`;
  }
}
