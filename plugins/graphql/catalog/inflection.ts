import type { ForeignKeyDefinition, TableDefinition } from './table-definition.js';

/**
 * PostGraphile's (V4 preset) naming rules, applied to our table definitions: camelCase
 * fields, `UPPER_SNAKE` enum values, `<type>By<Cols>` lookups and relations.
 */
export function camelCase(snake: string): string {
  return snake.replace(/_+([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

export function pascalCase(snake: string): string {
  const camel = camelCase(snake);
  return camel.charAt(0).toUpperCase() + camel.slice(1);
}

export function lowerFirst(name: string): string {
  return name.charAt(0).toLowerCase() + name.slice(1);
}

export function upperSnake(snake: string): string {
  return snake.toUpperCase();
}

export function fieldName(column: string): string {
  return camelCase(column);
}

/** `blockByHeight`, `transactionByBlockHeightAndTxIndex`. */
export function lookupFieldName(table: TableDefinition, columns: readonly string[]): string {
  return `${lowerFirst(table.typeName)}By${columns.map(pascalCase).join('And')}`;
}

/** Forward relation on the referencing type: `Transaction.blockByBlockHeight`. */
export function forwardRelationName(target: TableDefinition, fk: ForeignKeyDefinition): string {
  return `${lowerFirst(target.typeName)}By${fk.columns.map(pascalCase).join('And')}`;
}

/** Backward relation on the referenced type: `Block.transactionsByBlockHeight`. */
export function backwardRelationName(child: TableDefinition, fk: ForeignKeyDefinition): string {
  return `${lowerFirst(child.pluralTypeName)}By${fk.columns.map(pascalCase).join('And')}`;
}

export const typeNames = {
  connection: (t: TableDefinition) => `${t.pluralTypeName}Connection`,
  edge: (t: TableDefinition) => `${t.pluralTypeName}Edge`,
  orderBy: (t: TableDefinition) => `${t.pluralTypeName}OrderBy`,
  condition: (t: TableDefinition) => `${t.typeName}Condition`,
  filter: (t: TableDefinition) => `${t.typeName}Filter`,
  aggregates: (t: TableDefinition) => `${t.typeName}Aggregates`,
  aggregateKind: (t: TableDefinition, kind: string) => `${t.typeName}${kind.charAt(0).toUpperCase()}${kind.slice(1)}Aggregates`,
  groupBy: (t: TableDefinition) => `${t.typeName}GroupBy`,
  having: (t: TableDefinition) => `${t.typeName}HavingInput`,
  allRows: (t: TableDefinition) => `all${t.pluralTypeName}`,
  byNodeId: (t: TableDefinition) => lowerFirst(t.typeName),
};
