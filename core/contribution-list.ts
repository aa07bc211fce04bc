import { BootError } from './errors.js';
import { isCapability, type Capability } from './capability.js';

/** What decides, once at freeze, which contributions are served (the host's CapabilityPolicy). */
export interface AdmissionPolicy {
  allows(capability: Capability): boolean;
}

/**
 * An append-only list of contributions of one kind. Every contribution names its plugin and
 * must declare a capability; keys must be unique; after init the host freezes every list, so
 * nothing can be added while servers run. Freezing applies the capability policy once: what it
 * refuses is withheld — absent from `list`, `values` and `get`, which every consumer reads — and
 * kept apart only so a caller can be told why (`withheldEntry`).
 */
export interface Contributed<T> {
  plugin: string;
  value: T;
}

export class ContributionList<T> {
  private readonly items: Contributed<T>[] = [];
  private readonly byKey = new Map<string, Contributed<T>>();
  private readonly withheldByKey = new Map<string, Contributed<T>>();
  private frozen = false;

  constructor(
    readonly kind: string,
    /** The unique key of a contribution (a tool's name, a route's `server:id`). */
    readonly keyOf: (value: T) => string,
    /** Its declared capability; null for kinds the policy does not apply to (servers). */
    readonly capabilityOf: ((value: T) => unknown) | null = (value) => (value as { capability?: unknown }).capability,
  ) {}

  add(plugin: string, value: T): void {
    const key = this.keyOf(value);
    if (this.frozen) {
      throw new BootError('registry_frozen', `plugin "${plugin}" tried to add ${this.kind} "${key}" after init; contribute in register() or init()`);
    }
    if (this.capabilityOf && !isCapability(this.capabilityOf(value))) {
      throw new BootError('missing_capability', `${this.kind} "${key}" from plugin "${plugin}" declares no capability; set capability: 'read' or 'unsafe'`);
    }
    const existing = this.byKey.get(key);
    if (existing) {
      const code = this.kind === 'tool' ? 'duplicate_tool' : 'duplicate_contribution';
      throw new BootError(code, `${this.kind} "${key}" is contributed twice: by plugin "${existing.plugin}" and by plugin "${plugin}"`);
    }
    const entry = { plugin, value };
    this.items.push(entry);
    this.byKey.set(key, entry);
  }

  /** Drops what an optional plugin contributed before its boot failed (also after freeze: a failure in start, before any server binds). */
  removePlugin(plugin: string): void {
    for (const [key, entry] of this.withheldByKey) if (entry.plugin === plugin) this.withheldByKey.delete(key);
    for (let i = this.items.length - 1; i >= 0; i--) {
      const entry = this.items[i]!;
      if (entry.plugin === plugin) {
        this.items.splice(i, 1);
        this.byKey.delete(this.keyOf(entry.value));
      }
    }
  }

  /** Ends registration; with a policy, withholds every contribution whose capability it refuses. */
  freeze(policy?: AdmissionPolicy): void {
    if (this.frozen) return;
    this.frozen = true;
    const capabilityOf = this.capabilityOf;
    if (!policy || !capabilityOf) return;
    const admitted = this.items.filter((entry) => {
      if (policy.allows(capabilityOf(entry.value) as Capability)) return true;
      const key = this.keyOf(entry.value);
      this.byKey.delete(key);
      this.withheldByKey.set(key, entry);
      return false;
    });
    this.items.splice(0, this.items.length, ...admitted);
  }

  /** A contribution the policy withheld at freeze (e.g. an unsafe tool while unsafe tools are off). */
  withheldEntry(key: string): Contributed<T> | undefined {
    return this.withheldByKey.get(key);
  }

  withheld(): readonly Contributed<T>[] {
    return [...this.withheldByKey.values()];
  }

  get isFrozen(): boolean {
    return this.frozen;
  }

  get(key: string): Contributed<T> | undefined {
    return this.byKey.get(key);
  }

  list(): readonly Contributed<T>[] {
    return this.items;
  }

  values(): T[] {
    return this.items.map((i) => i.value);
  }
}
