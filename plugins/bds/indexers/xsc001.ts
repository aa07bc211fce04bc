/**
 * The XSC001 source check (bds.md §5.1): a module-level `balances = Hash(...)` and `@export`
 * functions with exactly these positional parameter names. A line-based reading of the Python
 * source — contract sources are canonical (formatted by the node), so decorators sit directly
 * above their `def` and signatures may span lines only inside their parentheses.
 */
const REQUIRED: ReadonlyArray<[string, string[]]> = [
  ['change_metadata', ['key', 'value']],
  ['transfer', ['amount', 'to']],
  ['approve', ['amount', 'to']],
  ['transfer_from', ['amount', 'to', 'main_account']],
  ['balance_of', ['address']],
];

const BALANCES = /^balances\s*=\s*Hash\s*\(/m;
const EXPORTED_DEF = /^@export\s*(?:\([^)]*\))?\s*\n(?:@[^\n]*\n)*def\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(([^)]*)\)/gm;

export function isXsc001Source(source: string): boolean {
  if (!BALANCES.test(source)) return false;
  const exported = new Map<string, string[]>();
  for (const m of source.matchAll(EXPORTED_DEF)) exported.set(m[1]!, parameterNames(m[2]!));
  return REQUIRED.every(([name, params]) => {
    const got = exported.get(name);
    return got !== undefined && got.length === params.length && got.every((p, i) => p === params[i]);
  });
}

/** `amount: float, to: str = "x"` → ["amount", "to"]; `*args`/`**kwargs` are kept verbatim so they never match. */
function parameterNames(list: string): string[] {
  return splitTopLevel(list)
    .map((p) => p.trim())
    .filter((p) => p.length > 0)
    .map((p) => p.split(/[:=]/)[0]!.trim());
}

function splitTopLevel(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(' || ch === '[' || ch === '{') depth++;
    if (ch === ')' || ch === ']' || ch === '}') depth--;
    if (ch === ',' && depth === 0) {
      out.push(current);
      current = '';
    } else current += ch;
  }
  out.push(current);
  return out;
}
