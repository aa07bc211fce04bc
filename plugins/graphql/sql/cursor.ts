import { GraphQLError } from 'graphql';
import type { PgColumnType } from '../catalog/table-definition.js';
import { formatDatetime } from '../schema/scalars.js';
import type { OrderTerm, ResolvedOrder } from './order-by.js';

/**
 * Cursors in PostGraphile 5's form: base64 of `[digest, ...orderValues]`, e.g.
 * `["7dfdf9d8ce","31"]` (the digest names the order's columns, order-by.ts). Values travel as
 * PostgreSQL's text casts give them: BIGINT and NUMERIC as strings, INTEGER as a number. A cursor
 * made under another order is refused with PostGraphile's message rather than silently
 * matching nothing.
 */
export function encodeCursor(order: ResolvedOrder, row: Record<string, unknown>): string {
  const values = order.terms.map((t) => cursorValue(row[t.column.name], t.column.type));
  return Buffer.from(JSON.stringify([order.digest, ...values])).toString('base64');
}

function cursorValue(value: unknown, type: PgColumnType): unknown {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'bigint':
    case 'numeric':
      return String(value);
    case 'integer':
      return Number(value);
    case 'timestamptz':
      return formatDatetime(value);
    case 'jsonb':
      return JSON.parse(JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)));
    default:
      return value;
  }
}

const INVALID = 'Invalid cursor, please enter a cursor from a previous request, or null.';

export function decodeCursor(order: ResolvedOrder, cursor: string, argument: 'after' | 'before'): unknown[] {
  // PostGraphile's public message, word for word (clients match on it); why it is invalid stays here.
  const invalid = (_why: string) => new GraphQLError(INVALID);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64').toString('utf8'));
  } catch {
    throw invalid('it is not a cursor this server issued');
  }
  if (!Array.isArray(parsed) || parsed.length !== order.terms.length + 1 || typeof parsed[0] !== 'string') throw invalid('it is not a cursor of this order');
  if (parsed[0] !== order.digest) throw invalid('it was made under another orderBy');
  const values = parsed.slice(1);
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
