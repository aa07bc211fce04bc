import { GraphQLError } from 'graphql';
import type { PgColumnType } from '../catalog/table-definition.js';
import { formatDatetime } from '../schema/scalars.js';
import type { OrderTerm, ResolvedOrder } from './order-by.js';

/**
 * Cursors in PostGraphile v4's form: base64 of `[...orderByNames, [orderValues]]`, e.g.
 * `["primary_key_asc",[42]]`. A cursor made under another `orderBy` is refused with a message
 * rather than silently matching nothing.
 */
export function encodeCursor(order: ResolvedOrder, row: Record<string, unknown>): string {
  const values = order.terms.map((t) => cursorValue(row[t.column.name], t.column.type));
  return Buffer.from(JSON.stringify([...order.cursorPrefix, values])).toString('base64');
}

function cursorValue(value: unknown, type: PgColumnType): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'bigint':
      return typeof value === 'number' ? value : String(value);
    case 'numeric':
      return String(value);
    case 'timestamptz':
      return formatDatetime(value);
    case 'jsonb':
      return JSON.parse(JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)));
    default:
      return value;
  }
}

export function decodeCursor(order: ResolvedOrder, cursor: string, argument: 'after' | 'before'): unknown[] {
  const invalid = (why: string) =>
    new GraphQLError(`Invalid cursor in \`${argument}\`: ${why}. Use a cursor from this connection's edges or pageInfo, fetched with the same orderBy.`);
  let parsed: unknown;
  try {
    const text = Buffer.from(cursor, 'base64').toString('utf8');
    parsed = JSON.parse(text);
  } catch {
    throw invalid('it is not a cursor this server issued');
  }
  if (!Array.isArray(parsed) || parsed.length !== order.cursorPrefix.length + 1) throw invalid('it is not a cursor this server issued');
  const prefix = parsed.slice(0, -1);
  if (prefix.some((p, i) => p !== order.cursorPrefix[i])) {
    throw invalid(`it was made for orderBy ${JSON.stringify(prefix.map((p) => String(p).toUpperCase()))}, not ${JSON.stringify(order.cursorPrefix.map((p) => p.toUpperCase()))}`);
  }
  const values = parsed[parsed.length - 1];
  if (!Array.isArray(values) || values.length !== order.terms.length) throw invalid('its values do not match the order');
  order.terms.forEach((t: OrderTerm, i) => {
    if (!valueFits(values[i], t.column.type, t.column.nullable ?? false)) throw invalid(`its value for ${t.column.name} is malformed`);
  });
  return values;
}

function valueFits(value: unknown, type: PgColumnType, nullable: boolean): boolean {
  if (value === null) return nullable;
  switch (type) {
    case 'bigint':
    case 'integer':
      return (typeof value === 'number' && Number.isInteger(value)) || (typeof value === 'string' && /^-?\d+$/.test(value));
    case 'numeric':
      return typeof value === 'string' && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'timestamptz':
      return typeof value === 'string' && !Number.isNaN(Date.parse(value));
    case 'text':
      return typeof value === 'string';
    case 'jsonb':
      return true;
  }
}
