import { isEnumType, isInputObjectType, isInterfaceType, isObjectType, isUnionType, type GraphQLSchema } from 'graphql';

/**
 * How many rows an introspection field stands for, from the schema itself: `types` is every
 * type, `directives` every directive, and a per-type list (`fields`, `inputFields`,
 * `enumValues`, `interfaces`, `possibleTypes`) or per-field list (`args`) its average length —
 * so a full `__schema { types { fields { args } } }` walk costs exactly the number of objects
 * it returns, and 380 aliased walks cost 380 times that (issue #19: the answer was 21.7 MB).
 * Other introspection fields are one row.
 */
const cache = new WeakMap<GraphQLSchema, (field: string) => number>();

export function introspectionFanout(schema: GraphQLSchema): (field: string) => number {
  let fanout = cache.get(schema);
  if (!fanout) cache.set(schema, (fanout = measure(schema)));
  return fanout;
}

function measure(schema: GraphQLSchema): (field: string) => number {
  const types = Object.values(schema.getTypeMap());
  const directives = schema.getDirectives();
  let fields = 0;
  let args = 0;
  let inputFields = 0;
  let enumValues = 0;
  let interfaces = 0;
  let possibleTypes = 0;
  for (const type of types) {
    if (isObjectType(type) || isInterfaceType(type)) {
      const list = Object.values(type.getFields());
      fields += list.length;
      for (const f of list) args += f.args.length;
      interfaces += type.getInterfaces().length;
    }
    if (isInterfaceType(type) || isUnionType(type)) possibleTypes += schema.getPossibleTypes(type).length;
    if (isInputObjectType(type)) inputFields += Object.keys(type.getFields()).length;
    if (isEnumType(type)) enumValues += type.getValues().length;
  }
  for (const d of directives) args += d.args.length;
  const perType = (total: number) => Math.max(1, Math.ceil(total / types.length));
  const rows: Record<string, number> = {
    types: types.length,
    directives: directives.length,
    fields: perType(fields),
    inputFields: perType(inputFields),
    enumValues: perType(enumValues),
    interfaces: perType(interfaces),
    possibleTypes: perType(possibleTypes),
    args: Math.max(1, Math.ceil(args / Math.max(1, fields + directives.length))),
  };
  return (field) => rows[field] ?? 1;
}
