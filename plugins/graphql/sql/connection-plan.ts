import { GraphQLError } from 'graphql';
import type { TableDefinition } from '../catalog/table-definition.js';
import { decodeCursor } from './cursor.js';
import { resolveOrder, type ResolvedOrder } from './order-by.js';
import { Sql } from './sql-fragment.js';
import { conditionSql, filterSql } from './where-clause.js';

/**
 * The arguments of one connection field (`first, last, offset, before, after, orderBy,
 * condition, filter`) checked and turned into a plan: the WHERE clause, a total order, the
 * decoded cursors and the page size. Pure, so the request limiter can plan every connection of
 * a query before anything runs and reject a bad one with HTTP 400.
 */
export interface ConnectionArgs {
  first?: number | null;
  last?: number | null;
  offset?: number | null;
  before?: string | null;
  after?: string | null;
  orderBy?: readonly string[] | null;
  condition?: Record<string, unknown> | null;
  filter?: Record<string, unknown> | null;
}

export interface ConnectionPlan {
  table: TableDefinition;
  /** condition AND filter over alias `t`. */
  where: Sql;
  order: ResolvedOrder;
  after: unknown[] | null;
  before: unknown[] | null;
  first: number | null;
  last: number | null;
  offset: number;
  /** Rows per page: first, last, or the default page size when neither was given. */
  limit: number;
  /** `last` was given: read the order backwards, then flip the page. */
  backward: boolean;
  /** Groups identical plans for batching (same table, same arguments). */
  signature: string;
}

export const TABLE_ALIAS = 't';

export interface PageSizes {
  /** The largest `first`/`last`. */
  max: number;
  /** Rows per page when neither `first` nor `last` is given. */
  default: number;
}

/** The sizes a connection is planned with: relations default to their own smaller page. */
export function pageSizesFor(limits: { max: number; relation: number }, relation: boolean): PageSizes {
  return { max: limits.max, default: relation ? Math.min(limits.relation, limits.max) : limits.max };
}

export function planConnection(table: TableDefinition, args: ConnectionArgs, sizes: PageSizes): ConnectionPlan {
  const maxPageSize = sizes.max;
  const first = checkCount(args.first, 'first', maxPageSize);
  const last = checkCount(args.last, 'last', maxPageSize);
  const offset = args.offset ?? 0;
  if (!Number.isInteger(offset) || offset < 0) throw new GraphQLError(`\`offset\` must be a non-negative integer, got ${offset}`);
  if (first !== null && last !== null) throw new GraphQLError('Setting both `first` and `last` on one connection is not supported; use `first` (with `after`) or `last` (with `before`)');
  if (last !== null && offset > 0) throw new GraphQLError('`offset` cannot be combined with `last`; page backwards with `last` and `before` instead');
  const order = resolveOrder(table, args.orderBy);
  const after = args.after != null ? decodeCursor(order, args.after, 'after') : null;
  const before = args.before != null ? decodeCursor(order, args.before, 'before') : null;
  const where = Sql.and([conditionSql(table, TABLE_ALIAS, args.condition), filterSql(table, TABLE_ALIAS, args.filter)]);
  const limit = first ?? last ?? sizes.default;
  const signature = JSON.stringify([table.name, where.text, where.values, order.cursorPrefix, args.after ?? null, args.before ?? null, first, last, offset]);
  return { table, where, order, after, before, first, last, offset, limit, backward: last !== null, signature };
}

function checkCount(value: number | null | undefined, name: 'first' | 'last', max: number): number | null {
  if (value === null || value === undefined) return null;
  if (!Number.isInteger(value) || value < 0) throw new GraphQLError(`\`${name}\` must be a non-negative integer, got ${value}`);
  if (value > max) {
    throw new GraphQLError(`\`${name}\` is ${value}, above the maximum page size of ${max}; request at most ${max} rows and page on with \`${name === 'first' ? 'after: pageInfo.endCursor' : 'before: pageInfo.startCursor'}\``);
  }
  return value;
}
