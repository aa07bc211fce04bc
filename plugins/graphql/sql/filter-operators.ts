import type { PgColumnType } from '../catalog/table-definition.js';
import { FALSE, Sql, TRUE } from './sql-fragment.js';

/**
 * The operators of postgraphile-plugin-connection-filter, per scalar, with the SQL each
 * compiles to (graphql.md §4): standard and sort operators on every scalar, pattern matching
 * and case-insensitive variants on strings, containment and key tests on JSON. Pattern
 * operators escape `%`, `_` and `\` in the input as the plugin does; `like` does not.
 */
export type OperatorInput = 'same' | 'list' | 'boolean' | 'string' | 'stringList';

export interface OperatorSpec {
  name: string;
  description: string;
  input: OperatorInput;
  compile(column: string, value: unknown, type: PgColumnType): Sql;
}

const bind = (value: unknown, type: PgColumnType) => Sql.value(value, type);
const binary = (op: string) => (column: string, value: unknown, type: PgColumnType) => Sql.build`${column} ${op} ${bind(value, type)}`;

/**
 * A list operand as ONE bound parameter (its JSON text) unpacked by PostgreSQL: a placeholder
 * per item ran into the protocol's 65,535-parameter limit (a 70,000-item `in` list dropped the
 * connection, reported as DATABASE_UNAVAILABLE). `ARRAY(SELECT …)` is computed once, so
 * `= ANY(…)` keeps using the column's index. `wrap` applies to each element (lower()).
 */
function list(values: unknown, type: PgColumnType, wrap = (element: string) => element): Sql {
  const element = type === 'jsonb' ? 'x' : `x::${type}`;
  const unpack = type === 'jsonb' ? 'jsonb_array_elements' : 'jsonb_array_elements_text';
  return Sql.build`ARRAY(SELECT ${wrap(element)} FROM ${unpack}(${Sql.value(values, 'jsonb')}) AS x)`;
}

const STANDARD: OperatorSpec[] = [
  {
    name: 'isNull', input: 'boolean', description: 'Is null (if `true` is specified) or is not null (if `false` is specified).',
    compile: (c, v) => Sql.raw(`${c} ${v ? 'IS NULL' : 'IS NOT NULL'}`),
  },
  { name: 'equalTo', input: 'same', description: 'Equal to the specified value.', compile: binary('=') },
  { name: 'notEqualTo', input: 'same', description: 'Not equal to the specified value.', compile: binary('<>') },
  { name: 'distinctFrom', input: 'same', description: 'Not equal to the specified value, treating null like an ordinary value.', compile: binary('IS DISTINCT FROM') },
  { name: 'notDistinctFrom', input: 'same', description: 'Equal to the specified value, treating null like an ordinary value.', compile: binary('IS NOT DISTINCT FROM') },
  {
    name: 'in', input: 'list', description: 'Included in the specified list.',
    compile: (c, v, t) => ((v as unknown[]).length === 0 ? FALSE : Sql.build`${c} = ANY(${list(v, t)})`),
  },
  {
    name: 'notIn', input: 'list', description: 'Not included in the specified list.',
    compile: (c, v, t) => ((v as unknown[]).length === 0 ? TRUE : Sql.build`NOT (${c} = ANY(${list(v, t)}))`),
  },
];

const SORT: OperatorSpec[] = [
  { name: 'lessThan', input: 'same', description: 'Less than the specified value.', compile: binary('<') },
  { name: 'lessThanOrEqualTo', input: 'same', description: 'Less than or equal to the specified value.', compile: binary('<=') },
  { name: 'greaterThan', input: 'same', description: 'Greater than the specified value.', compile: binary('>') },
  { name: 'greaterThanOrEqualTo', input: 'same', description: 'Greater than or equal to the specified value.', compile: binary('>=') },
];

export function escapeLikeWildcards(input: string): string {
  return input.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function pattern(name: string, description: string, op: 'LIKE' | 'NOT LIKE' | 'ILIKE' | 'NOT ILIKE', shape: ((s: string) => string) | null): OperatorSpec {
  return {
    name, description, input: 'same',
    compile: (c, v) => Sql.build`${c} ${op} ${bind(shape ? shape(escapeLikeWildcards(String(v))) : v, 'text')}`,
  };
}

const contains = (s: string) => `%${s}%`;
const starts = (s: string) => `${s}%`;
const ends = (s: string) => `%${s}`;
const LIKE_NOTE = 'An underscore (_) matches any single character; a percent sign (%) matches any sequence of zero or more characters.';

const PATTERN: OperatorSpec[] = [
  pattern('includes', 'Contains the specified string (case-sensitive).', 'LIKE', contains),
  pattern('notIncludes', 'Does not contain the specified string (case-sensitive).', 'NOT LIKE', contains),
  pattern('includesInsensitive', 'Contains the specified string (case-insensitive).', 'ILIKE', contains),
  pattern('notIncludesInsensitive', 'Does not contain the specified string (case-insensitive).', 'NOT ILIKE', contains),
  pattern('startsWith', 'Starts with the specified string (case-sensitive).', 'LIKE', starts),
  pattern('notStartsWith', 'Does not start with the specified string (case-sensitive).', 'NOT LIKE', starts),
  pattern('startsWithInsensitive', 'Starts with the specified string (case-insensitive).', 'ILIKE', starts),
  pattern('notStartsWithInsensitive', 'Does not start with the specified string (case-insensitive).', 'NOT ILIKE', starts),
  pattern('endsWith', 'Ends with the specified string (case-sensitive).', 'LIKE', ends),
  pattern('notEndsWith', 'Does not end with the specified string (case-sensitive).', 'NOT LIKE', ends),
  pattern('endsWithInsensitive', 'Ends with the specified string (case-insensitive).', 'ILIKE', ends),
  pattern('notEndsWithInsensitive', 'Does not end with the specified string (case-insensitive).', 'NOT ILIKE', ends),
  pattern('like', `Matches the specified pattern (case-sensitive). ${LIKE_NOTE}`, 'LIKE', null),
  pattern('notLike', `Does not match the specified pattern (case-sensitive). ${LIKE_NOTE}`, 'NOT LIKE', null),
  pattern('likeInsensitive', `Matches the specified pattern (case-insensitive). ${LIKE_NOTE}`, 'ILIKE', null),
  pattern('notLikeInsensitive', `Does not match the specified pattern (case-insensitive). ${LIKE_NOTE}`, 'NOT ILIKE', null),
];

/** `equalToInsensitive` etc.: `lower(column) <op> lower(value)`, as the plugin compiles them for text. */
const INSENSITIVE: OperatorSpec[] = [...STANDARD, ...SORT]
  .filter((op) => op.name !== 'isNull')
  .map((op) => ({
    name: `${op.name}Insensitive`,
    input: op.input,
    description: `${op.description.slice(0, -1)} (case-insensitive).`,
    compile: (c: string, v: unknown) => {
      if (op.name === 'in' || op.name === 'notIn') {
        const items = v as unknown[];
        if (items.length === 0) return op.name === 'in' ? FALSE : TRUE;
        const any = Sql.build`lower(${c}) = ANY(${list(items, 'text', (x) => `lower(${x})`)})`;
        return op.name === 'in' ? any : Sql.build`NOT (${any})`;
      }
      const sqlOp = { equalTo: '=', notEqualTo: '<>', distinctFrom: 'IS DISTINCT FROM', notDistinctFrom: 'IS NOT DISTINCT FROM', lessThan: '<', lessThanOrEqualTo: '<=', greaterThan: '>', greaterThanOrEqualTo: '>=' }[op.name]!;
      return Sql.build`lower(${c}) ${sqlOp} lower(${bind(v, 'text')})`;
    },
  }));

const JSON_OPERATORS: OperatorSpec[] = [
  { name: 'contains', input: 'same', description: 'Contains the specified JSON.', compile: binary('@>') },
  // jsonb_exists* instead of ?, ?& and ?|, which the query builder would read as placeholders.
  { name: 'containsKey', input: 'string', description: 'Contains the specified key.', compile: (c, v) => Sql.build`jsonb_exists(${c}, ${bind(v, 'text')})` },
  {
    name: 'containsAllKeys', input: 'stringList', description: 'Contains all of the specified keys.',
    compile: (c, v) => Sql.build`jsonb_exists_all(${c}, ${list(v, 'text')})`,
  },
  {
    name: 'containsAnyKeys', input: 'stringList', description: 'Contains any of the specified keys.',
    compile: (c, v) => Sql.build`jsonb_exists_any(${c}, ${list(v, 'text')})`,
  },
  { name: 'containedBy', input: 'same', description: 'Contained by the specified JSON.', compile: binary('<@') },
];

/** Operators offered for a column type, in the plugin's field order. */
export function operatorsFor(type: PgColumnType): readonly OperatorSpec[] {
  switch (type) {
    case 'text': return TEXT_OPERATORS;
    case 'jsonb': return JSONB_OPERATORS;
    default: return SCALAR_OPERATORS;
  }
}

const SCALAR_OPERATORS = [...STANDARD, ...SORT];
const TEXT_OPERATORS = [...STANDARD, ...SORT, ...PATTERN, ...INSENSITIVE];
const JSONB_OPERATORS = [...STANDARD, ...SORT, ...JSON_OPERATORS];

/** `containsAllKeys: []` has no SQL array literal of length 0 without a type; answer it directly. */
export function trivialOperator(name: string, value: unknown): Sql | null {
  if ((name === 'containsAllKeys' || name === 'containsAnyKeys') && Array.isArray(value) && value.length === 0) {
    return name === 'containsAllKeys' ? TRUE : FALSE;
  }
  return null;
}
