import { BootError } from './errors.js';
import { isCapability } from './capability.js';

/**
 * An append-only list of contributions of one kind. Every contribution names its plugin and
 * must declare a capability; keys must be unique; after init the host freezes every list, so
 * nothing can be added while servers run.
 */
export interface Contributed<T> {
  plugin: string;
  value: T;
}

export class ContributionList<T> {
  private readonly items: Contributed<T>[] = [];
  private readonly byKey = new Map<string, Contributed<T>>();
  private frozen = false;

  constructor(
    readonly kind: string,
    private readonly keyOf: (value: T) => string,
    private readonly capabilityOf: ((value: T) => unknown) | null = (value) => (value as { capability?: unknown }).capability,
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

  /** Drops what an optional plugin contributed before its boot failed. */
  removePlugin(plugin: string): void {
    if (this.frozen) return;
    for (let i = this.items.length - 1; i >= 0; i--) {
      const entry = this.items[i]!;
      if (entry.plugin === plugin) {
        this.items.splice(i, 1);
        this.byKey.delete(this.keyOf(entry.value));
      }
    }
  }

  freeze(): void {
    this.frozen = true;
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
