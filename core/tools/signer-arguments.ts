import { z } from 'zod';
import { Wallet } from '../chain/keys.js';
import { CoreTokens } from '../core-tokens.js';
import { ApiError } from '../errors.js';
import type { HostAccounts } from '../keystore/host-accounts.js';
import type { KeystoreEntry } from '../keystore/keystore-file.js';
import { ALIAS_PATTERN } from '../keystore/keystore-file.js';
import type { Token } from '../tokens.js';
import { privateKeySchema } from './identifier-schemas.js';
import type { ToolDefinition } from './tool.js';

/**
 * The one way a tool takes a signer: `private_key` (a raw key, when the deployment allows it)
 * or `account` (an alias or address of a keystore account the host unlocked), exactly one of
 * the two. A key argument `<prefix>private_key` pairs with `<prefix>account`
 * (`sender_private_key` ↔ `sender_account`). Every signing tool of every plugin builds its
 * fields, refusals and wallet here, so the rules and messages are the same everywhere.
 */

/** Whether raw keys may cross the tool interface (CoreTokens.keyArguments). */
export interface KeyArgumentSetting {
  privateKeyArguments: boolean;
  /** The config key that decides it, named in refusals (e.g. `plugins.wallet.privateKeyArguments`). */
  configKey: string;
}

export const DEFAULT_KEY_ARGUMENTS: KeyArgumentSetting = { privateKeyArguments: true, configKey: 'privateKeyArguments' };

/** The account argument paired with a key argument: `private_key` → `account`, `sender_private_key` → `sender_account`. */
export type AccountArgument<K extends string> = K extends `${infer P}private_key` ? `${P}account` : never;

export function accountArgumentOf<K extends string>(key: K): AccountArgument<K> {
  if (!key.endsWith('private_key')) throw new TypeError(`a key argument ends in private_key; got ${key}`);
  return `${key.slice(0, -'private_key'.length)}account` as AccountArgument<K>;
}

/** Schemas that name a keystore account (or store into the keystore): the host unlocks the keystore at start only when a visible tool has one. */
const keystoreArguments = new WeakSet<z.ZodType>();

function keystoreArgument<T extends z.ZodType>(schema: T): T {
  keystoreArguments.add(schema);
  return schema;
}

/** Whether a tool takes a keystore account (a signer) or stores into the keystore. */
export function usesKeystore(tool: ToolDefinition): boolean {
  // A plugin in plain JavaScript may hand over anything as `input`: only an object schema's fields count.
  const shape = (tool.input as { shape?: unknown } | null | undefined)?.shape;
  return typeof shape === 'object' && shape !== null && Object.values(shape).some((field) => keystoreArguments.has(field as z.ZodType));
}

const accountText = z.string().trim().min(1).max(200);

const storeAsText = z.string().regex(ALIAS_PATTERN, 'must be an account name: 1 to 64 letters, digits, "_" or "-", starting with a letter or digit');
const STORE_AS = 'keep the key in the keystore under this alias; answer only the address';
/** `store_as`: keep a new key in the keystore under this alias and answer only its address. */
const optionalStoreAs = keystoreArgument(storeAsText.optional().describe(STORE_AS));
const requiredStoreAs = keystoreArgument(storeAsText.describe(`${STORE_AS} Required: raw private keys are switched off on this host.`)) as unknown as typeof optionalStoreAs;

export type SignerShape<K extends string> = { [P in K]: z.ZodOptional<typeof privateKeySchema> } & { [P in AccountArgument<K>]: z.ZodOptional<typeof accountText> };

/** Who signs a call, and how to name them in a message. */
export interface Signer {
  wallet: Wallet;
  /** The keystore account, or null for a raw key. */
  account: KeystoreEntry | null;
  /** `account "alice" (<address>)` or `private_key`: for messages such as a plan's account mismatch. */
  label: string;
}

export class SignerArguments {
  constructor(
    readonly setting: KeyArgumentSetting,
    private readonly accounts: () => HostAccounts,
  ) {}

  get privateKeyArguments(): boolean {
    return this.setting.privateKeyArguments;
  }

  /** The input fields of one signer: `<key>` (only when raw keys are allowed) and its account argument, both optional, exactly one required at call time. */
  fields<K extends string>(key: K, whose = 'the signing account'): SignerShape<K> {
    const account = accountArgumentOf(key);
    const about = `${whose}: keystore account (alias or address)`;
    // Without raw keys the account is the only way to sign: required in the schema itself, so clients see it.
    const accountField = keystoreArgument(
      this.privateKeyArguments ? accountText.optional().describe(`${about}; or ${key}`) : accountText.describe(about),
    );
    const shape: Record<string, z.ZodType> = { [account]: accountField };
    if (this.privateKeyArguments) {
      shape[key] = privateKeySchema.optional().describe(`or a 64-hex private key; prefer ${account}`);
    }
    return shape as SignerShape<K>;
  }

  /** The `store_as` field of a key-creating tool: optional, or required when raw keys may not be answered. */
  storeAsField(): typeof optionalStoreAs {
    return this.privateKeyArguments ? optionalStoreAs : requiredStoreAs;
  }

  /** `refusedArguments` for a tool with these key arguments: each, when switched off, with what to send instead. */
  refused(...keys: string[]): Readonly<Record<string, string>> {
    if (this.privateKeyArguments) return {};
    return Object.fromEntries(keys.map((key) => [
      key,
      `raw private keys are switched off on this host (${this.setting.configKey} is false); send ${accountArgumentOf(key)} (a keystore account's alias or address) instead`,
    ]));
  }

  /**
   * The signer of a call's arguments: exactly one of `<key>` and its account argument. Async: a
   * keystore account is decrypted on its first use (off the event loop), not at start.
   */
  async resolve<K extends string>(args: Partial<Record<string, unknown>>, key: K): Promise<Signer> {
    const account = accountArgumentOf(key);
    const rawKey = args[key];
    const alias = args[account];
    if (rawKey !== undefined && alias !== undefined) {
      throw ApiError.badRequest(`give exactly one of ${account} and ${key}, not both`, { field: `${account}, ${key}` });
    }
    if (typeof alias === 'string') {
      const found = await this.accounts().signer(alias, account);
      return { wallet: found.wallet, account: found.entry, label: `account "${found.entry.alias}" (${found.wallet.address})` };
    }
    if (typeof rawKey === 'string') {
      if (!this.privateKeyArguments) throw ApiError.badRequest(`${key}: ${this.refused(key)[key]}`, { field: key });
      return { wallet: Wallet.fromPrivateKey(rawKey), account: null, label: key };
    }
    throw ApiError.badRequest(
      this.privateKeyArguments
        ? `give one of ${account} (a keystore account's alias or address) and ${key}`
        : `${account} is required: a keystore account's alias or address (raw private keys are switched off on this host)`,
      { field: this.privateKeyArguments ? `${account}, ${key}` : account },
    );
  }

  /** Keeps `wallet` in the keystore under `alias` (the host's passphrase, never an argument). */
  store(alias: string, wallet: Wallet, argument = 'store_as'): Promise<KeystoreEntry> {
    return this.accounts().store(alias, wallet, argument);
  }
}

/** A plugin's SignerArguments, from the services the host (and the plugin owning the setting) publish. */
export function signerArgumentsOf(ctx: { resolve<T>(token: Token<T>): T }): SignerArguments {
  const setting = ctx.resolve(CoreTokens.keyArguments);
  // Resolved per call: the accounts are opened at start, after the tools were built.
  return new SignerArguments(setting, () => ctx.resolve(CoreTokens.accounts));
}
