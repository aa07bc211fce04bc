/**
 * Tool JSON Schemas in the most portable spelling, with the same meaning. zod writes a nullable
 * field as `type: ["string", "null"]` and an unconstrained value (z.unknown()) as `{}`; both are
 * legal JSON Schema, but clients that map schemas onto a single-`type` dialect (the OpenAPI
 * subset of some model providers) drop or reject them, and the MCP Inspector's `--strict` check
 * flags them. Here a type list becomes `anyOf` branches of one type each, and "any JSON value"
 * is spelled out as the six JSON types.
 */

type Schema = Record<string, unknown>;

/** Keywords that describe but do not constrain; a schema with only these accepts anything. */
const ANNOTATIONS = new Set(['$schema', '$id', '$comment', 'title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly']);

const ANY_JSON: Schema[] = ['string', 'number', 'boolean', 'object', 'array', 'null'].map((type) => ({ type }));

function isSchema(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function mapValues(v: unknown): unknown {
  if (!isSchema(v)) return v;
  return Object.fromEntries(Object.entries(v).map(([k, s]) => [k, portableSchema(s)]));
}

export function portableSchema(node: unknown): unknown {
  if (!isSchema(node)) return node;
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' || key === 'patternProperties' || key === 'definitions' || key === '$defs') out[key] = mapValues(value);
    else if (key === 'items') out[key] = Array.isArray(value) ? value.map(portableSchema) : portableSchema(value);
    else if (['additionalProperties', 'additionalItems', 'not', 'propertyNames', 'contains', 'if', 'then', 'else'].includes(key)) out[key] = portableSchema(value);
    else if ((key === 'anyOf' || key === 'oneOf' || key === 'allOf') && Array.isArray(value)) out[key] = value.map(portableSchema);
    else out[key] = value;
  }
  if (Array.isArray(out.type)) {
    const notes: Schema = {};
    const constraints: Schema = {};
    for (const [k, v] of Object.entries(out)) {
      if (k === 'type') continue;
      (ANNOTATIONS.has(k) ? notes : constraints)[k] = v;
    }
    return { ...notes, anyOf: (out.type as string[]).map((type) => (type === 'null' ? { type } : { type, ...constraints })) };
  }
  if (Object.keys(out).every((k) => ANNOTATIONS.has(k))) return { ...out, anyOf: ANY_JSON };
  return out;
}
