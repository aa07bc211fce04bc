import { compileModule, parseVmJson, type CompiledModule } from 'chainhost/contracting';

/**
 * Compiled modules by contract name and IR text: a contract's stored `__xian_ir_v1__` is parsed
 * and turned into closures once (DESIGN.md "Contracts: one engine"), then reused by every
 * transaction and dry run until its stored IR text changes (a state patch, a redeploy after reset).
 * A stored IR the VM refuses is remembered as refused, so a broken contract costs one attempt.
 * The text is read with the contracting package's exact reader (integers as bigints), as `runVm`
 * reads it: `JSON.parse` would round an int literal past 2^53 before the VM saw it.
 */
interface LoadedModule {
  ir: string;
  module: CompiledModule | Error;
  storages: Map<string, string>;
}

export class ModuleCache {
  private readonly byName = new Map<string, LoadedModule>();

  get(name: string, irText: string): CompiledModule | undefined {
    const loaded = this.load(name, irText);
    return loaded.module instanceof Error ? undefined : loaded.module;
  }

  /** Storage declarations (binding → `Variable`/`Hash`/…) of a module's IR, for interface checks. */
  storages(name: string, irText: string): ReadonlyMap<string, string> {
    return this.load(name, irText).storages;
  }

  private load(name: string, irText: string): LoadedModule {
    const cached = this.byName.get(name);
    if (cached !== undefined && cached.ir === irText) return cached;
    let module: CompiledModule | Error;
    const storages = new Map<string, string>();
    try {
      const ir = parseVmJson(irText) as { global_declarations?: Array<{ node?: string; name?: string; storage_type?: string }> };
      for (const d of ir.global_declarations ?? []) {
        if (d.node === 'storage_decl' && typeof d.name === 'string' && typeof d.storage_type === 'string') storages.set(d.name, d.storage_type);
      }
      module = compileModule(ir);
    } catch (err) {
      module = err instanceof Error ? err : new Error(String(err));
    }
    const loaded = { ir: irText, module, storages };
    this.byName.set(name, loaded);
    return loaded;
  }
}
