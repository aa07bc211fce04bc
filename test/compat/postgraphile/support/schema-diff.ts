import { getIntrospectionQuery, type IntrospectionQuery, type IntrospectionTypeRef } from 'graphql';

/**
 * The schema side of the differential test: both servers' introspection flattened into one
 * entry per type, field, argument, input field, enum value, interface, union member and
 * directive (descriptions left out: wording is not an interface), then compared entry by entry.
 * A difference's id names the item (`schema/field/Query.allBlocks`), so the allow-list can
 * address it.
 */
export const INTROSPECTION_QUERY = getIntrospectionQuery({ inputValueDeprecation: true, specifiedByUrl: true });

export interface Difference {
  /** Stable name of the differing item: `schema/<kind>/<name>` or `query/<corpus name>`. */
  id: string;
  /** What differs, in one or a few lines. */
  detail: string;
  /** For a query: both answers, normalised (`{status, body}`), for allow-list entries that check what differs. */
  answers?: { reference: unknown; ours: unknown };
}

function typeRef(t: IntrospectionTypeRef): string {
  if (t.kind === 'NON_NULL') return `${typeRef(t.ofType)}!`;
  if (t.kind === 'LIST') return `[${typeRef(t.ofType)}]`;
  return t.name;
}

/** id → description of the item's shape (what must be equal). */
export function flattenSchema(result: IntrospectionQuery): Map<string, string> {
  const out = new Map<string, string>();
  const s = result.__schema;
  out.set('schema/root/query', s.queryType?.name ?? 'null');
  out.set('schema/root/mutation', s.mutationType?.name ?? 'null');
  out.set('schema/root/subscription', s.subscriptionType?.name ?? 'null');
  const deprecation = (d: { isDeprecated?: boolean; deprecationReason?: string | null }) => (d.isDeprecated ? ` @deprecated(${JSON.stringify(d.deprecationReason ?? null)})` : '');
  for (const t of s.types) {
    if (t.name.startsWith('__')) continue;
    out.set(`schema/type/${t.name}`, t.kind + ('specifiedByURL' in t && t.specifiedByURL ? ` specifiedBy ${t.specifiedByURL}` : ''));
    if (t.kind === 'OBJECT' || t.kind === 'INTERFACE') {
      for (const i of t.interfaces ?? []) out.set(`schema/implements/${t.name}:${i.name}`, 'yes');
      for (const f of t.fields) {
        out.set(`schema/field/${t.name}.${f.name}`, typeRef(f.type) + deprecation(f));
        for (const a of f.args) out.set(`schema/arg/${t.name}.${f.name}(${a.name})`, `${typeRef(a.type)}${a.defaultValue === null || a.defaultValue === undefined ? '' : ` = ${a.defaultValue}`}${deprecation(a)}`);
      }
    }
    if (t.kind === 'INPUT_OBJECT') {
      for (const f of t.inputFields) out.set(`schema/input/${t.name}.${f.name}`, `${typeRef(f.type)}${f.defaultValue === null || f.defaultValue === undefined ? '' : ` = ${f.defaultValue}`}${deprecation(f)}`);
      if ('isOneOf' in t && t.isOneOf) out.set(`schema/oneOf/${t.name}`, 'yes');
    }
    if (t.kind === 'ENUM') for (const v of t.enumValues) out.set(`schema/enum/${t.name}.${v.name}`, 'value' + deprecation(v));
    if (t.kind === 'UNION' || t.kind === 'INTERFACE') for (const p of t.possibleTypes ?? []) out.set(`schema/member/${t.name}:${p.name}`, 'yes');
  }
  for (const d of s.directives) {
    out.set(`schema/directive/@${d.name}`, `${d.isRepeatable ? 'repeatable ' : ''}on ${[...d.locations].sort().join(' | ')}`);
    for (const a of d.args) out.set(`schema/directive-arg/@${d.name}(${a.name})`, `${typeRef(a.type)}${a.defaultValue === null || a.defaultValue === undefined ? '' : ` = ${a.defaultValue}`}`);
  }
  return out;
}

/** The parent id whose absence already explains a missing child (so a missing type is one line, not fifty). */
function parentOf(id: string): string | null {
  const m = /^schema\/(?:field|arg|input|enum|implements|member|oneOf)\/([^.:(]+)/.exec(id);
  if (m) return `schema/type/${m[1]}`;
  const d = /^schema\/directive-arg\/(@[^(]+)/.exec(id);
  return d ? `schema/directive/${d[1]}` : null;
}

function argParent(id: string): string | null {
  const m = /^schema\/arg\/([^(]+)\(/.exec(id);
  return m ? `schema/field/${m[1]}` : null;
}

/** Every item that is missing on one side or differs, reference = PostGraphile. */
export function diffSchemas(reference: Map<string, string>, ours: Map<string, string>): Difference[] {
  const diffs: Difference[] = [];
  const ids = [...new Set([...reference.keys(), ...ours.keys()])].sort();
  const missingIn = (map: Map<string, string>, id: string) => {
    const parent = parentOf(id);
    if (parent && !map.has(parent)) return true;
    const field = argParent(id);
    return Boolean(field && !map.has(field));
  };
  for (const id of ids) {
    const a = reference.get(id);
    const b = ours.get(id);
    if (a === b) continue;
    if (b === undefined) {
      if (missingIn(ours, id)) continue;
      diffs.push({ id, detail: `only in PostGraphile: ${a}` });
    } else if (a === undefined) {
      if (missingIn(reference, id)) continue;
      diffs.push({ id, detail: `only in chainhost: ${b}` });
    } else {
      diffs.push({ id, detail: `PostGraphile ${a}  ≠  chainhost ${b}` });
    }
  }
  return diffs;
}
