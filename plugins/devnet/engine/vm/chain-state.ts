import type { ChainValue } from 'chainhost/chain';
import type { ChainState, CompiledModule, VmValue } from 'chainhost/contracting';
import type { StateReader } from '../types.js';
import type { ModuleCache } from './module-cache.js';
import { toVm } from './values.js';

export const IR_KEY = '__xian_ir_v1__';

/**
 * The VM's view of the devnet's state for one transaction: committed values through the
 * node's StateReader (converted to VM values once per key), deployed modules from their stored
 * IR through the shared ModuleCache. `overlay` lets a deployment's constructor see the
 * deploying transaction's pending writes (and the new module) before they are committed.
 */
export class DevnetChainState implements ChainState {
  private readonly values = new Map<string, VmValue | undefined>();

  constructor(
    private readonly reader: StateReader,
    private readonly modules: ModuleCache,
    private readonly overlay?: (key: string) => VmValue | undefined,
  ) {}

  get(key: string): VmValue | undefined {
    if (this.overlay) {
      const pending = this.overlay(key);
      if (pending !== undefined) return pending;
    }
    if (this.values.has(key)) return this.values.get(key);
    const raw: ChainValue | undefined = this.reader.get(key);
    const v = raw === undefined ? undefined : toVm(raw);
    this.values.set(key, v);
    return v;
  }

  *scan(prefix: string): Iterable<[string, VmValue]> {
    for (const key of this.reader.keys(prefix)) {
      const v = this.get(key);
      if (v !== undefined) yield [key, v];
    }
  }

  module(name: string): CompiledModule | undefined {
    const ir = this.get(`${name}.${IR_KEY}`);
    return typeof ir === 'string' ? this.modules.get(name, ir) : undefined;
  }
}
