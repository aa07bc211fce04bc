/**
 * The output schema a tool list carries: the outline a client validates `structuredContent`
 * against — the answer is an object, which fields it always has, and the allowed values of a
 * field that takes one of a few constants — without the types, nested shapes and field
 * descriptions that made output schemas two thirds of the listing (121 KB of 188.5 KB, issue
 * #29) while no client reads them. The answer itself is unchanged and still checked against the
 * tool's full zod schema by the invoker before it leaves the host. A field whose type cannot be
 * stated in one JSON Schema keyword (a union such as a nullable field, unconstrained, a `$ref`) is
 * left out of `properties` and only required.
 */
type Schema = Record<string, unknown>;

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Enumerations longer than this are a plain string in the outline. */
const MAX_ENUM = 8;

/** One keyword for the field's values, or null when it takes more (a union: the field is only required, not typed). */
function fieldOutline(node: unknown): Schema | null {
  if (!isSchema(node) || Array.isArray(node.anyOf) || Array.isArray(node.type)) return null;
  if ('const' in node) return { const: node.const };
  if (Array.isArray(node.enum)) return node.enum.length <= MAX_ENUM ? { enum: node.enum } : typeof node.enum[0] === 'string' ? { type: 'string' } : null;
  return typeof node.type === 'string' ? { type: node.type } : null;
}

/**
 * The outline of `schema`: an object with the fields every answer has. Only fields whose values
 * are one of a few constants (a status, a kind) are typed: they are what a client branches on.
 */
export function outputSchemaOutline(schema: Schema): Schema {
  const properties: Schema = {};
  const required = Array.isArray(schema.required) ? schema.required as string[] : [];
  for (const [name, field] of Object.entries(isSchema(schema.properties) ? schema.properties : {})) {
    const outline = required.includes(name) ? fieldOutline(field) : null;
    if (outline && !('type' in outline)) properties[name] = outline;
  }
  const outline: Schema = { type: 'object' };
  if (Object.keys(properties).length) outline.properties = properties;
  if (required.length) outline.required = required;
  return outline;
}
