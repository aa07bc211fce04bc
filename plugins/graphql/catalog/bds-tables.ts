import type { ColumnDefinition, TableDefinition } from './table-definition.js';

/**
 * The BDS schema v7 tables (bds.md §2) as PostGraphile would introspect them: column order,
 * types, NOT NULL, primary keys, unique constraints and foreign keys exactly as the DDL
 * declares them, so the generated names (graphql.md §3) follow mechanically.
 */
const text = (name: string, nullable = false): ColumnDefinition => ({ name, type: 'text', nullable });
const bigint = (name: string, nullable = false): ColumnDefinition => ({ name, type: 'bigint', nullable });
const integer = (name: string, nullable = false): ColumnDefinition => ({ name, type: 'integer', nullable });
const numeric = (name: string, nullable = false): ColumnDefinition => ({ name, type: 'numeric', nullable });
const boolean = (name: string, nullable = false): ColumnDefinition => ({ name, type: 'boolean', nullable });
const jsonb = (name: string, nullable = false): ColumnDefinition => ({ name, type: 'jsonb', nullable });
const timestamptz = (name: string, nullable = false): ColumnDefinition => ({ name, type: 'timestamptz', nullable });

const toBlocks = (column = 'block_height') => ({ columns: [column], references: { table: 'blocks', columns: ['height'] } });
const toTransactions = (column = 'tx_hash') => ({ columns: [column], references: { table: 'transactions', columns: ['hash'] } });

const shieldedColumns: ColumnDefinition[] = [
  bigint('id'), bigint('block_height'), text('tx_hash'), integer('tx_index'), text('contract'), text('function'),
  text('action'), integer('output_index'), integer('note_index', true), text('commitment'), text('new_root'),
  text('payload_hash'), timestamptz('created_at'),
];

export const BDS_TABLES: readonly TableDefinition[] = [
  {
    name: 'blocks', typeName: 'Block', pluralTypeName: 'Blocks',
    description: 'A finalized block indexed by BDS. `blockTime` is nanoseconds since the epoch.',
    columns: [bigint('height'), text('block_hash'), bigint('block_time'), timestamptz('block_time_iso'), integer('tx_count'), text('app_hash'), timestamptz('created_at')],
    primaryKey: ['height'],
    uniqueKeys: [['block_hash']],
  },
  {
    name: 'transactions', typeName: 'Transaction', pluralTypeName: 'Transactions',
    description: 'An indexed transaction (pseudo-transactions for genesis and state patches included). `hash` is the uppercase CometBFT hash.',
    columns: [
      text('hash'), bigint('block_height'), text('block_hash'), bigint('block_time'), integer('tx_index'), text('sender'),
      bigint('nonce'), text('contract'), text('function'), boolean('success'), integer('status_code'), bigint('chi_used'),
      jsonb('result', true), jsonb('payload'), jsonb('envelope'), timestamptz('created_at'),
    ],
    primaryKey: ['hash'],
    uniqueKeys: [['block_height', 'tx_index']],
    foreignKeys: [toBlocks()],
  },
  {
    name: 'addresses', typeName: 'Address', pluralTypeName: 'Addresses',
    description: 'Activity summary of a transaction sender.',
    columns: [
      text('address'), bigint('tx_count'), bigint('first_block_height'), timestamptz('first_seen'), bigint('last_block_height'),
      integer('last_tx_index'), timestamptz('last_seen'), text('last_tx_hash', true), text('last_contract'), text('last_function'),
      timestamptz('updated_at'),
    ],
    primaryKey: ['address'],
    foreignKeys: [toTransactions('last_tx_hash')],
  },
  {
    name: 'state_changes', typeName: 'StateChange', pluralTypeName: 'StateChanges', nodeAlias: 'state_changes',
    description: 'One state write, in block order; `newValueNumeric` is the numeric projection of `newValue`.',
    columns: [
      bigint('change_id'), bigint('block_height'), text('block_hash'), bigint('block_time'), text('tx_hash', true), integer('tx_index'),
      integer('write_index'), text('key'), jsonb('new_value', true), numeric('new_value_numeric', true), bigint('previous_change_id', true),
      text('previous_tx_hash', true), text('origin_type'), timestamptz('created_at'),
    ],
    primaryKey: ['change_id'],
    uniqueKeys: [['block_height', 'tx_index', 'write_index']],
    foreignKeys: [toBlocks(), toTransactions()],
  },
  {
    name: 'state', typeName: 'State', pluralTypeName: 'States', nodeAlias: 'states',
    description: 'The latest indexed value of every state key (BDS view; use ABCI /get for authoritative current state).',
    columns: [
      text('key'), jsonb('value', true), numeric('value_numeric', true), bigint('last_change_id'), text('last_tx_hash', true),
      bigint('last_block_height'), timestamptz('updated_at'),
    ],
    primaryKey: ['key'],
  },
  {
    name: 'events', typeName: 'Event', pluralTypeName: 'Events',
    description: 'A contract event. `dataIndexed` is GIN-indexed: filter it with `contains`.',
    columns: [
      bigint('id'), bigint('block_height'), text('tx_hash'), integer('tx_index'), integer('event_index'), text('contract'), text('event'),
      text('signer'), text('caller'), jsonb('data_indexed'), jsonb('data'), timestamptz('created_at'),
    ],
    primaryKey: ['id'],
    uniqueKeys: [['tx_hash', 'event_index']],
    foreignKeys: [toBlocks(), toTransactions()],
  },
  {
    name: 'rewards', typeName: 'Reward', pluralTypeName: 'Rewards',
    description: 'A reward paid in a block (`type`: validator_reward, delegator_reward, foundation_reward, developer_reward).',
    columns: [
      bigint('id'), bigint('block_height'), text('tx_hash', true), integer('tx_index'), integer('reward_index'), text('type'),
      text('recipient_key', true), text('source_contract', true), numeric('value'), timestamptz('created_at'),
    ],
    primaryKey: ['id'],
    uniqueKeys: [['block_height', 'tx_index', 'reward_index']],
    foreignKeys: [toBlocks(), toTransactions()],
  },
  {
    name: 'shielded_outputs', typeName: 'ShieldedOutput', pluralTypeName: 'ShieldedOutputs',
    description: 'A shielded note output committed by a transaction.',
    columns: shieldedColumns,
    primaryKey: ['id'],
    uniqueKeys: [['tx_hash', 'output_index']],
    foreignKeys: [toBlocks(), toTransactions()],
  },
  {
    name: 'shielded_output_tags', typeName: 'ShieldedOutputTag', pluralTypeName: 'ShieldedOutputTags',
    description: 'A shielded output with one of its tags (`tagKind`: sync_hint or discovery_tag).',
    columns: [...shieldedColumns, text('tag_kind'), text('tag_value')],
    primaryKey: ['id'],
    uniqueKeys: [['tx_hash', 'output_index', 'tag_kind', 'tag_value']],
    foreignKeys: [toBlocks(), toTransactions()],
  },
  {
    name: 'contracts', typeName: 'Contract', pluralTypeName: 'Contracts',
    description: 'A deployed contract with its canonical source; `xsc001` marks token contracts.',
    columns: [text('name'), text('last_tx_hash'), bigint('submitted_at_block'), timestamptz('submitted_at'), text('source'), boolean('xsc001')],
    primaryKey: ['name'],
    foreignKeys: [toTransactions('last_tx_hash'), toBlocks('submitted_at_block')],
  },
  {
    // PostGraphile appends `Record` to a table whose name ends in `patch` or `input` (graphql.md §0).
    name: 'state_patches', typeName: 'StatePatchRecord', pluralTypeName: 'StatePatchRecords', nodeAlias: 'state_patches',
    description: 'A governed state patch applied in a block.',
    columns: [text('hash'), bigint('block_height'), text('block_hash'), bigint('block_time'), integer('patch_count'), jsonb('patches'), timestamptz('created_at')],
    primaryKey: ['hash'],
    foreignKeys: [toBlocks()],
  },
  {
    name: 'bds_meta', typeName: 'BdsMeta', pluralTypeName: 'BdsMetas', nodeAlias: 'bds_metas',
    description: 'BDS bookkeeping (`schema_version`).',
    columns: [text('key'), text('value'), timestamptz('updated_at')],
    primaryKey: ['key'],
  },
];

/**
 * The order in which PostGraphile 5 lists the BDS tables' root fields (`Query`'s lookups,
 * `<type>(nodeId)` fields and `all<Plural>` connections each run through the tables in this
 * order). It is neither the DDL's order nor the catalog's (pg_class by OID or by name): graphile
 * registers a table's resource when its asynchronous gathering finishes, so the order follows
 * from the tables' structure, which is fixed for BDS schema v7. Taken from the real
 * PostGraphile 5.1 over these tables; the differential test (test/compat/postgraphile,
 * `doc/type-field-order`) fails when it changes.
 */
export const POSTGRAPHILE_ROOT_ORDER: readonly string[] = [
  'bds_meta', 'state_patches', 'state', 'rewards', 'blocks', 'events', 'shielded_outputs', 'state_changes', 'addresses',
  'contracts', 'shielded_output_tags', 'transactions',
];
