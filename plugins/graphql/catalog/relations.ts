import { backwardRelationName, forwardRelationName } from './inflection.js';
import { columnOf, type TableDefinition } from './table-definition.js';

/**
 * The relations between the tables of one schema, from their foreign keys, as
 * connection-filter v5 exposes them in filters: a forward relation (`EventFilter.transactionByTxHash`,
 * plus `…Exists` when the key is nullable) and a backward one
 * (`BlockFilter.transactionsByBlockHeight { some every none }`, plus `…Exist`).
 */
export interface TableRelation {
  direction: 'forward' | 'backward';
  /** Field name on the filter (and on the row type). */
  field: string;
  other: TableDefinition;
  /** Columns of this table and the matching columns of the other, in order. */
  localColumns: readonly string[];
  otherColumns: readonly string[];
  /** Forward only: some key column is nullable (then `…Exists` is offered). */
  nullable: boolean;
}

export class TableCatalog {
  private readonly byName: Map<string, TableDefinition>;
  private readonly relations = new Map<string, TableRelation[]>();

  /** @param dbSchema the SQL schema holding the tables (relation filters name the other table). */
  constructor(readonly tables: readonly TableDefinition[], readonly dbSchema = 'public') {
    this.byName = new Map(tables.map((t) => [t.name, t]));
  }

  table(name: string): TableDefinition | undefined {
    return this.byName.get(name);
  }

  relationsOf(table: TableDefinition): TableRelation[] {
    let list = this.relations.get(table.name);
    if (list) return list;
    list = [];
    for (const fk of table.foreignKeys ?? []) {
      const target = this.byName.get(fk.references.table);
      if (!target) continue;
      list.push({
        direction: 'forward', field: forwardRelationName(target, fk), other: target, localColumns: fk.columns, otherColumns: fk.references.columns,
        nullable: fk.columns.some((c) => columnOf(table, c).nullable ?? false),
      });
    }
    for (const child of this.tables) {
      for (const fk of child.foreignKeys ?? []) {
        if (fk.references.table !== table.name) continue;
        list.push({ direction: 'backward', field: backwardRelationName(child, fk), other: child, localColumns: fk.references.columns, otherColumns: fk.columns, nullable: false });
      }
    }
    this.relations.set(table.name, list);
    return list;
  }
}
