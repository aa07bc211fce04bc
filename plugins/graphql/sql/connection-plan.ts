import { GraphQLError } from 'graphql';
import type { TableCatalog } from '../catalog/relations.js';
import type { TableDefinition } from '../catalog/table-definition.js';
import { argumentError } from '../execution/input-errors.js';
import { decodeCursor } from './cursor.js';
import { resolveOrder, type ResolvedOrder } from './order-by.js';
import { Sql } from './sql-fragment.js';
import { conditionSql, filterSql } from './where-clause.js';

/**
 * The arguments of one connection field (`first, last, offset, before, after, orderBy,
 * condition, filter`) checked and turned into a plan: the WHERE clause, a total order, the
 * decoded cursors and the page size. Pure, so the request limiter can plan every connection of
 * a query before anything runs (for its cost and bounds); a bad argument fails the field when
 * its resolver plans it (input-errors.ts).
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
  /** Rows per page: first, last, or the default page size when neither was given (null: every row). */
  limit: number | null;
  /** Both `first` and `last`: the last `last` of the first `first` rows (PostGraphile's reading). */
  lastOfFirst: number | null;
  /** `last` was given: read the order backwards, then flip the page. */
  backward: boolean;
  /** Groups identical plans for batching (same table, same arguments). */
  signature: string;
}

export const TABLE_ALIAS = 't';

export interface PageSizes {
  /** The largest `first`/`last` (null: no cap). */
  max: number | null;
  /** Rows per page when neither `first` nor `last` is given (null: every row). */
  default: number | null;
}

/** The sizes a connection is planned with: relations may default to their own smaller page. */
export function pageSizesFor(limits: { max: number | null; relation: number | null }, relation: boolean): PageSizes {
  const fallback = relation ? limits.relation ?? limits.max : limits.max;
  return { max: limits.max, default: fallback === null ? null : Math.min(fallback, limits.max ?? fallback) };
}

export function planConnection(table: TableDefinition, args: ConnectionArgs, sizes: PageSizes, catalog: TableCatalog | null = null): ConnectionPlan {
  const maxPageSize = sizes.max;
  const first = checkCount(args.first, 'first', maxPageSize);
  const last = checkCount(args.last, 'last', maxPageSize);
  const offset = args.offset ?? 0;
  if (!Number.isInteger(offset) || offset < 0) throw argumentError(`\`offset\` must be a non-negative integer, got ${offset}`);
  // PostGraphile's words (a public error there, not a masked one), for any offset given with last.
  if (last !== null && args.offset != null) throw new GraphQLError("Cannot use 'offset' with 'last'");
  const order = resolveOrder(table, args.orderBy, catalog);
  const after = args.after != null ? decodeCursor(order, args.after, 'after') : null;
  const before = args.before != null ? decodeCursor(order, args.before, 'before') : null;
  const where = Sql.and([conditionSql(table, TABLE_ALIAS, args.condition), filterSql(table, TABLE_ALIAS, args.filter, catalog)]);
  const limit = first ?? last ?? sizes.default;
  const signature = JSON.stringify([table.name, where.text, where.values, order.names, args.after ?? null, args.before ?? null, first, last, offset]);
  const both = first !== null && last !== null;
  return { table, where, order, after, before, first, last, offset, limit, lastOfFirst: both ? last : null, backward: last !== null && !both, signature };
}

function checkCount(value: number | null | undefined, name: 'first' | 'last', max: number | null): number | null {
  if (value === null || value === undefined) return null;
  if (!Number.isInteger(value) || value < 0) throw argumentError(`\`${name}\` must be a non-negative integer, got ${value}`);
  if (max !== null && value > max) {
    // A bound of this server (off by default), refused with the request like the other bounds.
    throw new GraphQLError(`\`${name}\` is ${value}, above the maximum page size of ${max}; request at most ${max} rows and page on with \`${name === 'first' ? 'after: pageInfo.endCursor' : 'before: pageInfo.startCursor'}\``, { extensions: { code: 'PAGE_TOO_LARGE', maxPageSize: max } });
  }
  return value;
}
