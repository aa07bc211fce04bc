import { ApiError, type Keystore } from 'chainhost/plugin';
import type { AccountPolicy } from './spending-policy.js';

export interface BoundPolicy {
  alias: string;
  address: string;
  /** null: a keystore account without a policy. */
  policy: AccountPolicy | null;
}

/**
 * The config's policies (by keystore alias) bound to addresses: a policy follows the account's
 * address, so it applies whether the key came as `private_key` or as `account`. The keystore's
 * list (no passphrase needed) is read again when an address is not known yet, so an account
 * stored while the host runs is covered from its first send; a binding once seen is kept, so
 * removing the key file does not lift its policy in a running host.
 */
export class PolicyBook {
  readonly #byAddress = new Map<string, BoundPolicy>();
  readonly #byAlias = new Map<string, BoundPolicy>();

  constructor(private readonly keystore: Keystore, private readonly policies: Readonly<Record<string, AccountPolicy>>) {}

  /** Re-reads the keystore's list; returns the policy aliases that name no account. */
  async refresh(): Promise<string[]> {
    let entries;
    try {
      entries = await this.keystore.list();
    } catch (err) {
      // A damaged account file: no send under a policy can be judged, so none goes out.
      throw new ApiError(503, 'keystore_unreadable', `the keystore cannot be read, so spending policies cannot be checked: ${(err as Error).message}`);
    }
    for (const entry of entries) {
      const bound: BoundPolicy = { alias: entry.alias, address: entry.address, policy: this.policies[entry.alias] ?? null };
      this.#byAlias.set(entry.alias, bound);
      // An address keeps the first policy it was bound to when an alias is re-used for another key.
      const known = this.#byAddress.get(entry.address);
      if (!known || (!known.policy && bound.policy)) this.#byAddress.set(entry.address, bound);
    }
    return Object.keys(this.policies).filter((alias) => !this.#byAlias.has(alias));
  }

  get hasPolicies(): boolean {
    return Object.keys(this.policies).length > 0;
  }

  /** The policy bound to `address`, or null when it has none. */
  async forSender(address: string): Promise<BoundPolicy | null> {
    if (!this.hasPolicies) return null;
    if (!this.#byAddress.has(address)) await this.refresh();
    const bound = this.#byAddress.get(address);
    return bound?.policy ? bound : null;
  }

  /** Every keystore account (policy or not), by alias. */
  async all(): Promise<BoundPolicy[]> {
    await this.refresh();
    return [...this.#byAlias.values()].sort((a, b) => a.alias.localeCompare(b.alias));
  }

  /** A keystore account by alias or address (policy or not); null when the keystore has no such account. */
  async account(aliasOrAddress: string): Promise<BoundPolicy | null> {
    await this.refresh();
    return this.#byAlias.get(aliasOrAddress) ?? this.#byAddress.get(aliasOrAddress.toLowerCase()) ?? null;
  }
}
