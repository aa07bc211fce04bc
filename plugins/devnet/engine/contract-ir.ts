import { sha256Hex } from 'chainhost/chain';

/**
 * Reading contract source the way the node's queries need it, and the minimal `__xian_ir_v1__`
 * the devnet persists. The real IR is the VM's compiled module; the devnet writes only the parts
 * the queries and tools read (`contract_methods`, `contract_vars`, `contract_ir`): module name,
 * source hash, imports, storage declarations and function signatures. The body nodes are empty.
 */

export interface SourceParameter {
  name: string;
  /** Annotation text (`str`, `float`, `datetime.datetime`, …) or null when unannotated. */
  annotation: string | null;
  /** Default value text as written, or null when the parameter is required. */
  default: string | null;
}

export interface SourceFunction {
  name: string;
  decorator: 'export' | 'construct' | null;
  parameters: SourceParameter[];
}

export interface SourceShape {
  imports: string[];
  storage: Array<{ name: string; kind: 'Variable' | 'Hash' | 'ForeignVariable' | 'ForeignHash' | 'LogEvent' }>;
  functions: SourceFunction[];
}

const DEF = /^def\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(/;
const DECORATOR = /^@(export|construct)\b/;
const IMPORT = /^import\s+([A-Za-z_][A-Za-z0-9_]*)\s*$/;
const STORAGE = /^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(Variable|Hash|ForeignVariable|ForeignHash|LogEvent)\s*\(/;

/** Module-level imports, storage declarations and `def` signatures of a contract source. */
export function parseSource(source: string): SourceShape {
  const lines = source.split(/\r?\n/);
  const shape: SourceShape = { imports: [], storage: [], functions: [] };
  let decorator: SourceFunction['decorator'] = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s/.test(line) || line.trim() === '' || line.startsWith('#')) continue;
    const dec = DECORATOR.exec(line);
    if (dec) { decorator = dec[1] as 'export' | 'construct'; continue; }
    const imp = IMPORT.exec(line);
    if (imp) { shape.imports.push(imp[1]!); continue; }
    const st = STORAGE.exec(line);
    if (st) { shape.storage.push({ name: st[1]!, kind: st[2] as SourceShape['storage'][number]['kind'] }); continue; }
    const def = DEF.exec(line);
    if (def) {
      // Collect the parameter text up to the matching parenthesis, across lines.
      let text = line.slice(def[0].length);
      let j = i;
      let params = closeParen(text);
      while (params === null && j + 1 < lines.length) {
        j++;
        text += '\n' + lines[j]!;
        params = closeParen(text);
      }
      i = j;
      shape.functions.push({ name: def[1]!, decorator, parameters: parseParameters(params ?? '') });
    }
    decorator = null;
  }
  return shape;
}

/** The text before the parenthesis closing an already-open one, or null when it does not close. */
function closeParen(text: string): string | null {
  let depth = 1;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      depth--;
      if (depth === 0) return text.slice(0, i);
    }
  }
  return null;
}

function splitTopLevel(text: string, sep: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === sep && depth === 0) { out.push(text.slice(start, i)); start = i + 1; }
  }
  out.push(text.slice(start));
  return out;
}

function parseParameters(text: string): SourceParameter[] {
  const out: SourceParameter[] = [];
  for (const raw of splitTopLevel(text.replace(/#[^\n]*/g, ''), ',')) {
    const part = raw.trim();
    if (part === '' || part === '*' || part === '/') continue;
    const [head, ...rest] = splitTopLevel(part, '=');
    const defaultText = rest.length > 0 ? rest.join('=').trim() : null;
    const [name, ...ann] = splitTopLevel(head!, ':');
    out.push({ name: name!.trim().replace(/^\*+/, ''), annotation: ann.length > 0 ? ann.join(':').trim() : null, default: defaultText });
  }
  return out;
}

/** The persisted `__xian_ir_v1__` text for a module (minimal: signatures and declarations). */
export function buildContractIr(moduleName: string, source: string): string {
  const shape = parseSource(source);
  const ir = {
    ir_version: 'xian_ir_v1',
    vm_profile: 'xian_vm_v1',
    host_catalog_version: 1,
    module_name: moduleName,
    source_hash: sha256Hex(source),
    docstring: null,
    imports: shape.imports.map((module) => ({ node: 'import', module })),
    global_declarations: shape.storage.map((s) =>
      s.kind === 'Variable' || s.kind === 'Hash' || s.kind === 'ForeignVariable' || s.kind === 'ForeignHash'
        ? { node: 'storage_decl', name: s.name, storage_type: s.kind }
        : { node: 'event_decl', name: s.name }),
    functions: shape.functions.map((f) => ({
      node: 'function_def',
      // The VM keeps private helpers and the constructor under a `__` prefix; exports keep their name.
      name: f.decorator === 'export' ? f.name : `__${f.name}`,
      decorator: f.decorator,
      parameters: f.parameters.map((p) => ({ name: p.name, annotation: p.annotation, default: p.default })),
      body: [],
    })),
    module_body: [],
    host_dependencies: [],
    devnet_native: true,
  };
  return JSON.stringify(ir);
}

export interface MethodDescription {
  name: string;
  arguments: Array<{ name: string; type?: string }>;
}

function describe(fns: ReadonlyArray<{ name: string; parameters: ReadonlyArray<{ name: string; annotation: string | null }> }>): MethodDescription[] {
  return fns
    .filter((f) => !f.name.startsWith('__'))
    .map((f) => ({
      name: f.name,
      arguments: f.parameters.map((p) => (p.annotation === null ? { name: p.name } : { name: p.name, type: p.annotation })),
    }));
}

/** `contract_methods` from IR text (every function not starting with `__`, in IR order). */
export function methodsFromIr(irText: string): MethodDescription[] | null {
  try {
    const ir = JSON.parse(irText) as {
      functions?: Array<{ name: string; visibility?: string; parameters?: Array<{ name: string; annotation?: string | null }> }>;
    };
    if (!Array.isArray(ir.functions)) return null;
    // The compiler keeps private helpers and the constructor under their own names, marked by `visibility`.
    const exported = ir.functions.filter((f) => f.visibility === undefined || f.visibility === 'export');
    return describe(exported.map((f) => ({ name: f.name, parameters: (f.parameters ?? []).map((p) => ({ name: p.name, annotation: p.annotation ?? null })) })));
  } catch {
    return null;
  }
}

/** `contract_methods` from source text (the fallback when there is no IR). */
export function methodsFromSource(source: string): MethodDescription[] {
  return describe(parseSource(source).functions.map((f) => ({ ...f, name: f.decorator === 'export' ? f.name : `__${f.name}` })));
}

/** `contract_vars` from IR text: storage declarations, leading `__` removed. */
export function varsFromIr(irText: string): { variables: string[]; hashes: string[] } | null {
  try {
    const ir = JSON.parse(irText) as { global_declarations?: Array<{ node?: string; name?: string; storage_type?: string }> };
    if (!Array.isArray(ir.global_declarations)) return null;
    const variables: string[] = [];
    const hashes: string[] = [];
    for (const d of ir.global_declarations) {
      if (d.node !== 'storage_decl' || typeof d.name !== 'string') continue;
      const name = d.name.replace(/^__/, '');
      if (d.storage_type === 'Variable') variables.push(name);
      else if (d.storage_type === 'Hash') hashes.push(name);
    }
    return { variables, hashes };
  } catch {
    return null;
  }
}
