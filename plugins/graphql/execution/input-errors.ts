import { randomInt } from 'node:crypto';
import { GraphQLError, type ASTNode } from 'graphql';

/**
 * Bad argument values are refused the way PostGraphile 5 refuses them: as errors of the field
 * that reads them, during execution (`data.<field>: null`, `path`, `locations`, HTTP 200),
 * never as a request error. Where PostGraphile masks its message ("An error occurred (logged
 * with hash: …, id: …)", `extensions: {errorId}`) we answer with the same shape and an error id
 * of the same form, but with a message that names the argument and what is wrong with it; where
 * PostGraphile's message is public (a bad cursor, `offset` with `last`) we answer with its words.
 */
const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** Ten characters from A–Z and 0–9, as PostGraphile's error ids (`B3FJAZ4A7U`). */
export function newErrorId(): string {
  let id = '';
  for (let i = 0; i < 10; i++) id += ID_ALPHABET[randomInt(ID_ALPHABET.length)];
  return id;
}

/** An argument value refused at execution, where PostGraphile would answer a masked error: `extensions: {errorId}`. */
export function argumentError(message: string, nodes?: ASTNode | readonly ASTNode[]): GraphQLError {
  return new GraphQLError(message, { nodes, extensions: { errorId: newErrorId() } });
}

/**
 * A scalar argument that does not parse (`BigInt` "abc", an object for a `Datetime`): returned
 * by the scalar instead of throwing, so validation lets the document through (as PostGraphile's
 * string scalars do), and the field that reads the value fails with `message`
 * (`rejectInvalidArguments`).
 */
export class InvalidScalarValue {
  constructor(readonly message: string) {}
}

/** The first unparsable scalar in a field's arguments, with its path (`condition.height`), or null. */
export function findInvalidArgument(args: Record<string, unknown>): { path: string; value: InvalidScalarValue } | null {
  for (const key in args) {
    const found = findIn(args[key], key, 0);
    if (found) return found;
  }
  return null;
}

/** Input nesting is bounded before execution (input-nesting.ts); the guard only keeps recursion finite. */
const MAX_WALK_DEPTH = 256;

function findIn(value: unknown, path: string, depth: number): { path: string; value: InvalidScalarValue } | null {
  if (value === null || typeof value !== 'object' || depth > MAX_WALK_DEPTH) return null;
  if (value instanceof InvalidScalarValue) return { path, value };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findIn(value[i], `${path}[${i}]`, depth + 1);
      if (found) return found;
    }
    return null;
  }
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return null;
  for (const key in value as Record<string, unknown>) {
    const found = findIn((value as Record<string, unknown>)[key], `${path}.${key}`, depth + 1);
    if (found) return found;
  }
  return null;
}

/** The field error for an unparsable argument: the scalar's reason and where it sits. */
export function invalidArgumentError(found: { path: string; value: InvalidScalarValue }): GraphQLError {
  return argumentError(`${found.value.message} (argument \`${found.path}\`)`);
}
