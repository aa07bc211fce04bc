import type { PgColumnType } from '../catalog/table-definition.js';
import { jsonText } from '../json-text.js';

/**
 * A piece of SQL with `?` placeholders and its values, in order. Every user value travels as a
 * bound parameter with an explicit cast to its column's type; identifiers come only from table
 * definitions and are quoted. Values are never arrays (knex would expand them): lists are
 * spelled out as one placeholder per item.
 */
export class Sql {
  constructor(readonly text: string, readonly values: readonly unknown[] = []) {}

  static raw(text: string): Sql {
    return new Sql(text);
  }

  /** One bound value cast to a column type: `?::bigint`. */
  static value(value: unknown, type: PgColumnType): Sql {
    return new Sql(`?::${type}`, [bindable(value, type)]);
  }

  static join(parts: readonly Sql[], separator: string): Sql {
    return new Sql(parts.map((p) => p.text).join(separator), parts.flatMap((p) => p.values));
  }

  static and(all: readonly Sql[]): Sql {
    const parts = all.filter((p) => p !== TRUE);
    if (parts.length === 0) return TRUE;
    if (parts.length === 1) return parts[0]!;
    return new Sql(parts.map((p) => `(${p.text})`).join(' AND '), parts.flatMap((p) => p.values));
  }

  static or(all: readonly Sql[]): Sql {
    const parts = all.filter((p) => p !== FALSE);
    if (parts.length === 0) return FALSE;
    if (parts.length === 1) return parts[0]!;
    return new Sql(parts.map((p) => `(${p.text})`).join(' OR '), parts.flatMap((p) => p.values));
  }

  /** `template` with `$1`, `$2`… replaced by the fragments' text (values concatenated in order). */
  static build(strings: TemplateStringsArray, ...parts: Array<Sql | string>): Sql {
    let text = strings[0]!;
    const values: unknown[] = [];
    parts.forEach((part, i) => {
      if (typeof part === 'string') text += part;
      else {
        text += part.text;
        values.push(...part.values);
      }
      text += strings[i + 1]!;
    });
    return new Sql(text, values);
  }
}

export const TRUE = Sql.raw('TRUE');
export const FALSE = Sql.raw('FALSE');

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** `"alias"."column"`. */
export function col(alias: string, column: string): string {
  return `${quoteIdent(alias)}.${quoteIdent(column)}`;
}

/**
 * The parameter form of a GraphQL input value for a column type: JSON as text, bigints as
 * decimal text (drivers differ on JS bigint), everything else as is.
 */
export function bindable(value: unknown, type: PgColumnType): unknown {
  if (value === null || value === undefined) return null;
  if (type === 'jsonb') return jsonText(value);
  if (typeof value === 'bigint') return value.toString();
  return value;
}
