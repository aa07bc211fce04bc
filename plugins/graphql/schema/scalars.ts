import { GraphQLBoolean, GraphQLError, GraphQLInt, GraphQLScalarType, GraphQLString, Kind, type GraphQLScalarType as ScalarType, type ValueNode } from 'graphql';
import type { PgColumnType } from '../catalog/table-definition.js';
import { InvalidScalarValue } from '../execution/input-errors.js';
import { jsonText } from '../json-text.js';

/**
 * PostGraphile's scalars and wire forms (graphql.md §2): BIGINT → `BigInt` as a string,
 * NUMERIC → `BigFloat` as a string, TIMESTAMPTZ → `Datetime` (ISO-8601, microseconds,
 * `+00:00`), JSONB → `JSON` (values, not strings), plus the opaque `Cursor`. Output accepts
 * whatever the driver hands over (number, bigint, string, Date) so the shape never depends on
 * the database handle's type parsers.
 */
/** PostgreSQL's int8 and numeric input (a sign, `+5`, included; numeric also NaN and ±Infinity since PostgreSQL 14). */
const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const DECIMAL_WORD = /^(?:nan|[+-]?inf(?:inity)?)$/i;

/**
 * PostGraphile's string scalars (BigInt, BigFloat, Datetime, Cursor) take only string literals:
 * anything else is a validation error in its words, without a location (graphql-js reports a
 * GraphQLError from parseLiteral as is).
 */
function literalText(ast: ValueNode, scalar: string): string {
  if (ast.kind === Kind.STRING) return ast.value;
  throw new GraphQLError(`${scalar} can only parse string values (kind='${ast.kind}')`);
}

/**
 * A string that does not parse is not refused here: PostGraphile lets any string (and any
 * variable value) through validation and fails the field that reads it. InvalidScalarValue
 * carries the reason to that field (execution/input-errors.ts).
 */
function inputText(value: unknown, scalar: string): string | InvalidScalarValue {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'bigint') return value.toString();
  return new InvalidScalarValue(`${scalar} cannot represent ${JSON.stringify(value) ?? String(value)}; pass it as a string`);
}

function parseBigInt(text: string | InvalidScalarValue): string | InvalidScalarValue {
  if (text instanceof InvalidScalarValue) return text;
  const t = text.trim();
  if (!INTEGER.test(t)) return new InvalidScalarValue(`BigInt cannot represent ${JSON.stringify(text)}: expected an integer such as "42"`);
  const n = BigInt(t);
  if (n < -(2n ** 63n) || n > 2n ** 63n - 1n) return new InvalidScalarValue(`BigInt ${t} is outside the 64-bit range of the column`);
  return n.toString();
}

export const GraphQLBigInt = new GraphQLScalarType({
  name: 'BigInt',
  description: 'A signed eight-byte integer, sent and received as a string so no precision is lost.',
  serialize: (value) => (typeof value === 'string' ? value : typeof value === 'bigint' ? value.toString() : String(value)),
  parseValue: (value) => parseBigInt(inputText(value, 'BigInt')),
  parseLiteral: (ast) => parseBigInt(literalText(ast, 'BigInt')),
});

function parseBigFloat(text: string | InvalidScalarValue): string | InvalidScalarValue {
  if (text instanceof InvalidScalarValue) return text;
  const t = text.trim();
  if (!DECIMAL.test(t) && !DECIMAL_WORD.test(t)) return new InvalidScalarValue(`BigFloat cannot represent ${JSON.stringify(text)}: expected a decimal such as "12.5"`);
  return t;
}

export const GraphQLBigFloat = new GraphQLScalarType({
  name: 'BigFloat',
  description: 'An arbitrary-precision decimal, sent and received as a string.',
  serialize: (value) => (typeof value === 'string' ? value : String(value)),
  parseValue: (value) => parseBigFloat(inputText(value, 'BigFloat')),
  parseLiteral: (ast) => parseBigFloat(literalText(ast, 'BigFloat')),
});

const PG_TIMESTAMP = /^(\d{4,}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?(Z|[+-]\d{2}(?::?\d{2})?)?$/;

/** PostGraphile's form: `2026-01-01T00:00:10.000000+00:00`. */
export function formatDatetime(value: unknown): string {
  if (value instanceof Date) return value.toISOString().replace(/\.(\d{3})Z$/, '.$1000+00:00');
  const text = String(value);
  if (text.length === 32 && text[10] === 'T' && text[19] === '.' && text.endsWith('+00:00')) return text; // already in form
  const m = PG_TIMESTAMP.exec(text);
  if (!m) return text;
  let zone = m[4] ?? '+00:00';
  if (zone === 'Z') zone = '+00:00';
  else if (/^[+-]\d{2}$/.test(zone)) zone += ':00';
  else if (/^[+-]\d{4}$/.test(zone)) zone = `${zone.slice(0, 3)}:${zone.slice(3)}`;
  return `${m[1]}T${m[2]}.${(m[3] ?? '').padEnd(6, '0')}${zone}`;
}

/**
 * The ISO 8601 forms PostgreSQL's timestamptz input takes (PostGraphile hands the text to it):
 * extended or basic date (`2026-11-27`, `20261127`), an optional time after `T` or a space
 * (`05:23`, `05:23:18.5`, `052318`), an optional zone (`Z`, `UTC`, `GMT`, `+00`, `+05:30`,
 * `+0530`, with or without a space before it, as PostgreSQL prints `+00`), and `infinity` /
 * `-infinity`. The text goes to PostgreSQL unchanged; fields are range-checked here so a bad
 * date fails its field with a message naming it rather than as a database error.
 */
const ISO_DATETIME = new RegExp(
  '^(?:(\\d{4,})-(\\d{1,2})-(\\d{1,2})|(\\d{4})(\\d{2})(\\d{2}))'
  + '(?:(?:T|\\s+)(?:(\\d{1,2}):(\\d{2})(?::(\\d{2})(?:\\.\\d+)?)?|(\\d{2})(\\d{2})(?:(\\d{2})(?:\\.\\d+)?)?)'
  + '(?:\\s*(?:Z|UTC|GMT|[+-]\\d{1,2}(?::?\\d{2}){0,2}))?)?$',
  'i',
);
const DATETIME_WORD = /^-?infinity$/i;

function datetimeFieldsValid(m: RegExpExecArray): boolean {
  const [year, month, day] = (m[1] !== undefined ? [m[1], m[2], m[3]] : [m[4], m[5], m[6]]).map(Number) as [number, number, number];
  const [hour, minute, second] = (m[7] !== undefined ? [m[7], m[8], m[9]] : [m[10], m[11], m[12]]).map((v) => Number(v ?? 0)) as [number, number, number];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const days = new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !isLeap(year) ? 1 : 0);
  if (day > days) return false;
  if (hour > 24 || minute > 59 || second > 60) return false;
  return hour < 24 || (minute === 0 && second === 0);
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function parseDatetime(text: string | InvalidScalarValue): string | InvalidScalarValue {
  if (text instanceof InvalidScalarValue) return text;
  const t = text.trim();
  if (DATETIME_WORD.test(t)) return t;
  const m = ISO_DATETIME.exec(t);
  if (!m || !datetimeFieldsValid(m)) {
    return new InvalidScalarValue(`Datetime cannot represent ${JSON.stringify(text)}: expected ISO-8601 such as "2026-01-01T00:00:00Z"`);
  }
  return t;
}

export const GraphQLDatetime = new GraphQLScalarType({
  name: 'Datetime',
  description: 'A point in time as an ISO-8601 string with time zone (RFC 3339).',
  serialize: formatDatetime,
  parseValue: (value) => parseDatetime(typeof value === 'string' ? value : new InvalidScalarValue(`Datetime cannot represent ${JSON.stringify(value) ?? String(value)}; pass an ISO-8601 string`)),
  parseLiteral: (ast) => parseDatetime(literalText(ast, 'Datetime')),
});

function jsonLiteral(ast: ValueNode, variables: Record<string, unknown> | null | undefined): unknown {
  switch (ast.kind) {
    case Kind.STRING:
    case Kind.BOOLEAN:
      return ast.value;
    case Kind.INT: {
      const n = Number(ast.value);
      return Number.isSafeInteger(n) ? n : BigInt(ast.value);
    }
    case Kind.FLOAT:
      return Number(ast.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return ast.values.map((v) => jsonLiteral(v, variables));
    case Kind.OBJECT:
      return Object.fromEntries(ast.fields.map((f) => [f.name.value, jsonLiteral(f.value, variables)]));
    case Kind.VARIABLE:
      return variables ? variables[ast.name.value] : undefined;
    default:
      throw new GraphQLError(`JSON cannot represent ${ast.kind}`, { nodes: ast });
  }
}

/** `dynamicJson: true`: JSON values as themselves (PostGraphile's `dynamicJson`). */
export const GraphQLJSON = new GraphQLScalarType({
  name: 'JSON',
  description: 'A JSON value: objects and arrays as themselves, not as strings.',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: jsonLiteral,
});

function parseJsonText(text: unknown): unknown {
  if (typeof text !== 'string') throw new GraphQLError('JSON must be given as a string of JSON text, e.g. "{\\"a\\": 1}" or "\\"text\\""');
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new GraphQLError(`JSON ${JSON.stringify(text.slice(0, 40))} is not valid JSON: ${(err as Error).message}`);
  }
}

/**
 * The default, as upstream's preset (makeV4Preset without `dynamicJson` sets
 * `jsonScalarAsString`): JSON leaves as JSON text (`"{\"to\":\"…\"}"`, `"\"99.75\""`), and a
 * JSON argument is JSON text, parsed here (a bare `None` is refused as not valid JSON).
 */
export const GraphQLJSONText = new GraphQLScalarType({
  name: 'JSON',
  description: 'A JavaScript object encoded in the JSON format as specified by [ECMA-404](http://www.ecma-international.org/publications/files/ECMA-ST/ECMA-404.pdf).',
  serialize: (value) => jsonText(value),
  parseValue: parseJsonText,
  // A plain error (JSON.parse's) here: graphql-js words it "Expected value of type "JSON", found …; <reason>", as PostGraphile answers.
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw new TypeError('JSON must be given as a string of JSON text');
    return JSON.parse(ast.value) as unknown;
  },
});

/** The JSON scalar of a schema: text (upstream's default) or values (`dynamicJson`). */
export function jsonScalar(dynamicJson: boolean): ScalarType {
  return dynamicJson ? GraphQLJSON : GraphQLJSONText;
}

export const GraphQLCursor = new GraphQLScalarType({
  name: 'Cursor',
  description: 'An opaque pagination cursor; pass back `startCursor`/`endCursor`/`edges.cursor` as `before`/`after`.',
  serialize: (value) => String(value),
  // PostGraphile: any variable value is taken as text (and then is no cursor it issued).
  parseValue: (value) => (typeof value === 'string' ? value : String(value)),
  parseLiteral: (ast) => literalText(ast, 'Cursor'),
});

export function scalarFor(type: PgColumnType, json: ScalarType = GraphQLJSONText): ScalarType {
  switch (type) {
    case 'text': return GraphQLString;
    case 'bigint': return GraphQLBigInt;
    case 'integer': return GraphQLInt;
    case 'numeric': return GraphQLBigFloat;
    case 'boolean': return GraphQLBoolean;
    case 'jsonb': return json;
    case 'timestamptz': return GraphQLDatetime;
  }
}

/** Numeric columns take part in sum/min/max/average (pg-aggregates' "number-like"). */
export function isNumberLike(type: PgColumnType): boolean {
  return type === 'bigint' || type === 'integer' || type === 'numeric';
}
