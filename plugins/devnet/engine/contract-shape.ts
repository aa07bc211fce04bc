import { compileContract, parseVmJson } from 'chainhost/contracting';

/**
 * What the contract-metadata queries read from a module's IR (`xian_ir_v1`, as the compiler
 * writes it and the node stores it under `__xian_ir_v1__`): its exported functions with their
 * annotation types, and its storage declarations.
 */

export interface MethodDescription {
  name: string;
  arguments: Array<{ name: string; type?: string }>;
}

interface IrShape {
  functions?: Array<{ name: string; visibility?: string; parameters?: Array<{ name: string; annotation?: string | null }> }>;
  global_declarations?: Array<{ node?: string; name?: string; storage_type?: string }>;
}

function parse(irText: string): IrShape | null {
  try {
    const ir = parseVmJson(irText) as unknown;
    return ir !== null && typeof ir === 'object' && !Array.isArray(ir) ? (ir as IrShape) : null;
  } catch {
    return null;
  }
}

/**
 * `contract_methods` from IR text: the exported functions in IR order (private helpers and the
 * constructor keep their names in the IR and are marked by `visibility`; a `__` name never
 * lists), `type` = the annotation text, omitted when unannotated.
 */
export function methodsFromIr(irText: string): MethodDescription[] | null {
  const ir = parse(irText);
  if (!ir || !Array.isArray(ir.functions)) return null;
  return ir.functions
    .filter((f) => (f.visibility === undefined || f.visibility === 'export') && !f.name.startsWith('__'))
    .map((f) => ({
      name: f.name,
      arguments: (f.parameters ?? []).map((p) => (p.annotation == null ? { name: p.name } : { name: p.name, type: p.annotation })),
    }));
}

/** `contract_vars` from IR text: storage declarations, `Variable` → variables, `Hash` → hashes, leading `__` removed. */
export function varsFromIr(irText: string): { variables: string[]; hashes: string[] } | null {
  const ir = parse(irText);
  if (!ir || !Array.isArray(ir.global_declarations)) return null;
  const variables: string[] = [];
  const hashes: string[] = [];
  for (const d of ir.global_declarations) {
    if (d.node !== 'storage_decl' || typeof d.name !== 'string') continue;
    const name = d.name.replace(/^__/, '');
    if (d.storage_type === 'Variable') variables.push(name);
    else if (d.storage_type === 'Hash') hashes.push(name);
  }
  return { variables, hashes };
}

/** The IR a stored source compiles to (the queries' fallback for a contract stored without IR), or null. */
export function irFromSource(name: string, source: string): string | null {
  const compiled = compileContract(name, source);
  return compiled.ok ? compiled.artifact.vm_ir_json : null;
}
