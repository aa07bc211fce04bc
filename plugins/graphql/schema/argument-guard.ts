import { defaultFieldResolver, isObjectType, type GraphQLSchema } from 'graphql';
import { findInvalidArgument, invalidArgumentError } from '../execution/input-errors.js';

/**
 * Every field with arguments first checks them for a scalar that did not parse
 * (InvalidScalarValue) and fails as that field, with the argument's path in the message:
 * PostGraphile lets such values through validation and fails the field that reads them
 * (`data.blockByHeight: null`, HTTP 200), and so does this server. Contributed fields are
 * covered too, so no resolver ever sees a half-parsed value.
 */
export function rejectInvalidArguments(schema: GraphQLSchema): void {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (field.args.length === 0) continue;
      const resolve = field.resolve ?? defaultFieldResolver;
      field.resolve = (source, args: Record<string, unknown>, context, info) => {
        const invalid = findInvalidArgument(args);
        if (invalid) throw invalidArgumentError(invalid);
        return resolve(source, args, context, info);
      };
    }
  }
}
