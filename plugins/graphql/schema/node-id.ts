import { columnOf, type TableDefinition } from '../catalog/table-definition.js';

/**
 * PostGraphile's global object ids: base64 of `[nodeAlias, ...primaryKeyValues]`, the alias
 * being the pluralised SQL table name (`["blocks",42]`, `["transactions","ABC…"]`).
 */
export function nodeAliasOf(table: TableDefinition): string {
  return table.nodeAlias ?? table.name;
}

export function encodeNodeId(table: TableDefinition, row: Record<string, unknown>): string {
  const values = table.primaryKey.map((c) => {
    const v = row[c];
    if (v === null || v === undefined) return v;
    switch (columnOf(table, c).type) {
      case 'bigint':
      case 'numeric':
        return String(v);
      case 'integer':
        return Number(v);
      default:
        return typeof v === 'bigint' ? v.toString() : v;
    }
  });
  return Buffer.from(JSON.stringify([nodeAliasOf(table), ...values])).toString('base64');
}

/** `[alias, ...values]`, or null when the text is not a node id. */
export function decodeNodeId(nodeId: string): { alias: string; values: unknown[] } | null {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(nodeId, 'base64').toString('utf8'));
    if (!Array.isArray(parsed) || typeof parsed[0] !== 'string') return null;
    return { alias: parsed[0], values: parsed.slice(1) };
  } catch {
    return null;
  }
}
