/**
 * The BDS schema, version 7 (bds.md §2), as DDL run inside the configured schema (the search
 * path points at it). Statements avoid `?` because knex.raw treats it as a binding.
 */
export const SCHEMA_VERSION = 7;

/** Core tables in dependency order (parents first): the snapshot order of bds.md §9.2. */
export const CORE_TABLES = [
  'bds_meta', 'blocks', 'transactions', 'addresses', 'state_changes', 'state', 'events', 'rewards',
  'shielded_outputs', 'shielded_output_tags', 'contracts', 'state_patches',
] as const;

export type CoreTable = (typeof CORE_TABLES)[number];

/** Tables that hold BDS data; their presence without a schema_version row means foreign or broken storage. */
export const MANAGED_TABLES: readonly string[] = CORE_TABLES.filter((t) => t !== 'bds_meta');

/** Identity columns, reset to their maxima after a snapshot import. */
export const IDENTITY_COLUMNS: ReadonlyArray<{ table: CoreTable; column: string }> = [
  { table: 'state_changes', column: 'change_id' },
  { table: 'events', column: 'id' },
  { table: 'rewards', column: 'id' },
  { table: 'shielded_outputs', column: 'id' },
  { table: 'shielded_output_tags', column: 'id' },
];

const DECIMAL_RE = String.raw`'^-{0,1}[0-9]+(\.[0-9]+){0,1}([eE][+-]{0,1}[0-9]{1,4}){0,1}$'`;
const INTEGER_RE = String.raw`'^-{0,1}[0-9]+$'`;

/**
 * bds.md §2.13: JSON number → numeric; a decimal-looking string → numeric; `{"__fixed__"}` and
 * `{"__big_int__"}` → numeric; anything else → NULL. Exponents are capped at 4 digits so a
 * hostile value yields NULL instead of failing the block's insert forever.
 */
export const NUMERIC_FUNCTION = `
CREATE OR REPLACE FUNCTION bds_numeric(v jsonb) RETURNS numeric
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $fn$
SELECT CASE
  WHEN v IS NULL THEN NULL
  WHEN jsonb_typeof(v) = 'number' THEN (v #>> '{}')::numeric
  WHEN jsonb_typeof(v) = 'string' THEN CASE WHEN (v #>> '{}') ~ ${DECIMAL_RE} THEN (v #>> '{}')::numeric END
  WHEN jsonb_typeof(v) = 'object' THEN CASE
    WHEN jsonb_typeof(v -> '__fixed__') = 'string' AND (v ->> '__fixed__') ~ ${DECIMAL_RE} THEN (v ->> '__fixed__')::numeric
    WHEN jsonb_typeof(v -> '__fixed__') = 'number' THEN (v ->> '__fixed__')::numeric
    WHEN jsonb_typeof(v -> '__big_int__') = 'string' AND (v ->> '__big_int__') ~ ${INTEGER_RE} THEN (v ->> '__big_int__')::numeric
    WHEN jsonb_typeof(v -> '__big_int__') = 'number' THEN (v ->> '__big_int__')::numeric
  END
END
$fn$`;

export const META_TABLE = `CREATE TABLE IF NOT EXISTS bds_meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL
)`;

export const SCHEMA_V7: readonly string[] = [
  NUMERIC_FUNCTION,
  META_TABLE,
  `CREATE TABLE IF NOT EXISTS blocks (
    height BIGINT PRIMARY KEY,
    block_hash TEXT NOT NULL UNIQUE,
    block_time BIGINT NOT NULL,
    block_time_iso TIMESTAMPTZ NOT NULL,
    tx_count INTEGER NOT NULL,
    app_hash TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
  )`,
  `CREATE INDEX IF NOT EXISTS idx_blocks_time_iso ON blocks (block_time_iso DESC)`,
  `CREATE TABLE IF NOT EXISTS transactions (
    hash TEXT PRIMARY KEY,
    block_height BIGINT NOT NULL REFERENCES blocks(height) ON DELETE CASCADE,
    block_hash TEXT NOT NULL,
    block_time BIGINT NOT NULL,
    tx_index INTEGER NOT NULL,
    sender TEXT NOT NULL,
    nonce BIGINT NOT NULL,
    contract TEXT NOT NULL,
    function TEXT NOT NULL,
    success BOOLEAN NOT NULL,
    status_code INTEGER NOT NULL,
    chi_used BIGINT NOT NULL,
    result JSONB,
    payload JSONB NOT NULL,
    envelope JSONB NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    UNIQUE (block_height, tx_index)
  )`,
  `CREATE INDEX IF NOT EXISTS idx_transactions_block_hash ON transactions (block_hash)`,
  `CREATE INDEX IF NOT EXISTS idx_transactions_sender_nonce ON transactions (sender, nonce)`,
  `CREATE INDEX IF NOT EXISTS idx_transactions_sender_height_index ON transactions (sender, block_height DESC, tx_index DESC)`,
  `CREATE INDEX IF NOT EXISTS idx_transactions_contract_height_index ON transactions (contract, block_height DESC, tx_index DESC)`,
  `CREATE INDEX IF NOT EXISTS idx_transactions_contract_function_height ON transactions (contract, function, block_height DESC)`,
  `CREATE INDEX IF NOT EXISTS idx_transactions_success_height ON transactions (success, block_height DESC)`,
  `CREATE INDEX IF NOT EXISTS idx_transactions_created_at ON transactions (created_at DESC)`,
  `CREATE TABLE IF NOT EXISTS addresses (
    address TEXT PRIMARY KEY,
    tx_count BIGINT NOT NULL DEFAULT 0,
    first_block_height BIGINT NOT NULL,
    first_seen TIMESTAMPTZ NOT NULL,
    last_block_height BIGINT NOT NULL,
    last_tx_index INTEGER NOT NULL,
    last_seen TIMESTAMPTZ NOT NULL,
    last_tx_hash TEXT REFERENCES transactions(hash) ON DELETE SET NULL,
    last_contract TEXT NOT NULL,
    last_function TEXT NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL
  )`,
  `CREATE INDEX IF NOT EXISTS idx_addresses_last_activity ON addresses (last_block_height DESC, last_tx_index DESC, address ASC)`,
  `CREATE TABLE IF NOT EXISTS state_changes (
    change_id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    block_height BIGINT NOT NULL REFERENCES blocks(height) ON DELETE CASCADE,
    block_hash TEXT NOT NULL,
    block_time BIGINT NOT NULL,
    tx_hash TEXT REFERENCES transactions(hash) ON DELETE CASCADE,
    tx_index INTEGER NOT NULL,
    write_index INTEGER NOT NULL,
    key TEXT NOT NULL,
    new_value JSONB,
    new_value_numeric NUMERIC GENERATED ALWAYS AS (bds_numeric(new_value)) STORED,
    previous_change_id BIGINT,
    previous_tx_hash TEXT,
    origin_type TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    UNIQUE (block_height, tx_index, write_index)
  )`,
  `CREATE INDEX IF NOT EXISTS idx_state_changes_key_history ON state_changes (key, block_height DESC, tx_index DESC, write_index DESC)`,
  `CREATE INDEX IF NOT EXISTS idx_state_changes_tx_hash ON state_changes (tx_hash, write_index)`,
  `CREATE INDEX IF NOT EXISTS idx_state_changes_block_order ON state_changes (block_height, tx_index, write_index)`,
  `CREATE INDEX IF NOT EXISTS idx_state_changes_previous_change ON state_changes (previous_change_id)`,
  `CREATE TABLE IF NOT EXISTS state (
    key TEXT PRIMARY KEY,
    value JSONB,
    value_numeric NUMERIC GENERATED ALWAYS AS (bds_numeric(value)) STORED,
    last_change_id BIGINT NOT NULL,
    last_tx_hash TEXT,
    last_block_height BIGINT NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL
  )`,
  `CREATE INDEX IF NOT EXISTS idx_state_value_numeric ON state (value_numeric)`,
  `CREATE INDEX IF NOT EXISTS idx_state_last_block_height ON state (last_block_height DESC)`,
  `CREATE INDEX IF NOT EXISTS idx_state_key_prefix ON state (key text_pattern_ops)`,
  `CREATE TABLE IF NOT EXISTS events (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    block_height BIGINT NOT NULL REFERENCES blocks(height) ON DELETE CASCADE,
    tx_hash TEXT NOT NULL REFERENCES transactions(hash) ON DELETE CASCADE,
    tx_index INTEGER NOT NULL,
    event_index INTEGER NOT NULL,
    contract TEXT NOT NULL,
    event TEXT NOT NULL,
    signer TEXT NOT NULL,
    caller TEXT NOT NULL,
    data_indexed JSONB NOT NULL,
    data JSONB NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    UNIQUE (tx_hash, event_index)
  )`,
  `CREATE INDEX IF NOT EXISTS idx_events_contract_event_height ON events (contract, event, block_height DESC)`,
  `CREATE INDEX IF NOT EXISTS idx_events_contract_event_order ON events (contract, event, block_height DESC, tx_index DESC, event_index DESC)`,
  `CREATE INDEX IF NOT EXISTS idx_events_contract_event_id ON events (contract, event, id)`,
  `CREATE INDEX IF NOT EXISTS idx_events_event_id ON events (event, id)`,
  `CREATE INDEX IF NOT EXISTS idx_events_created_at ON events (created_at DESC)`,
  `CREATE INDEX IF NOT EXISTS idx_events_created_at_id ON events (created_at DESC, id DESC)`,
  `CREATE INDEX IF NOT EXISTS idx_events_tx_hash ON events (tx_hash)`,
  `CREATE INDEX IF NOT EXISTS idx_events_data_indexed ON events USING GIN (data_indexed)`,
  `CREATE TABLE IF NOT EXISTS rewards (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    block_height BIGINT NOT NULL REFERENCES blocks(height) ON DELETE CASCADE,
    tx_hash TEXT REFERENCES transactions(hash) ON DELETE CASCADE,
    tx_index INTEGER NOT NULL,
    reward_index INTEGER NOT NULL,
    type TEXT NOT NULL,
    recipient_key TEXT,
    source_contract TEXT,
    value NUMERIC NOT NULL,
    created_at TIMESTAMPTZ NOT NULL,
    UNIQUE (block_height, tx_index, reward_index)
  )`,
  `CREATE INDEX IF NOT EXISTS idx_rewards_tx_hash ON rewards (tx_hash, reward_index)`,
  `CREATE INDEX IF NOT EXISTS idx_rewards_block_height ON rewards (block_height DESC)`,
  `CREATE INDEX IF NOT EXISTS idx_rewards_type_recipient ON rewards (type, recipient_key, block_height DESC)`,
  `CREATE INDEX IF NOT EXISTS idx_rewards_type_source ON rewards (type, source_contract, block_height DESC)`,
  shieldedTable('shielded_outputs', '', 'UNIQUE (tx_hash, output_index)'),
  `CREATE INDEX IF NOT EXISTS idx_shielded_outputs_note_index ON shielded_outputs (note_index ASC, id ASC) WHERE note_index IS NOT NULL`,
  `CREATE INDEX IF NOT EXISTS idx_shielded_outputs_tx_output ON shielded_outputs (tx_hash, output_index)`,
  `CREATE INDEX IF NOT EXISTS idx_shielded_outputs_commitment ON shielded_outputs (commitment)`,
  shieldedTable('shielded_output_tags', `,
    tag_kind TEXT NOT NULL,
    tag_value TEXT NOT NULL`, 'UNIQUE (tx_hash, output_index, tag_kind, tag_value)'),
  `CREATE INDEX IF NOT EXISTS idx_shielded_tags_order ON shielded_output_tags (tag_kind, tag_value, block_height DESC, tx_index DESC, output_index DESC)`,
  `CREATE INDEX IF NOT EXISTS idx_shielded_tags_id ON shielded_output_tags (tag_kind, tag_value, id)`,
  `CREATE INDEX IF NOT EXISTS idx_shielded_tags_note_index ON shielded_output_tags (tag_kind, tag_value, note_index ASC, id ASC) WHERE note_index IS NOT NULL`,
  `CREATE INDEX IF NOT EXISTS idx_shielded_tags_tx_output ON shielded_output_tags (tx_hash, output_index)`,
  `CREATE INDEX IF NOT EXISTS idx_shielded_tags_commitment ON shielded_output_tags (commitment)`,
  `CREATE TABLE IF NOT EXISTS contracts (
    name TEXT PRIMARY KEY,
    last_tx_hash TEXT NOT NULL REFERENCES transactions(hash) ON DELETE CASCADE,
    submitted_at_block BIGINT NOT NULL REFERENCES blocks(height) ON DELETE CASCADE,
    submitted_at TIMESTAMPTZ NOT NULL,
    source TEXT NOT NULL,
    xsc001 BOOLEAN NOT NULL DEFAULT FALSE
  )`,
  `CREATE INDEX IF NOT EXISTS idx_contracts_submitted ON contracts (submitted_at_block DESC)`,
  `CREATE INDEX IF NOT EXISTS idx_contracts_xsc001 ON contracts (submitted_at_block DESC, name ASC) WHERE xsc001 = TRUE`,
  `CREATE TABLE IF NOT EXISTS state_patches (
    hash TEXT PRIMARY KEY,
    block_height BIGINT NOT NULL REFERENCES blocks(height) ON DELETE CASCADE,
    block_hash TEXT NOT NULL,
    block_time BIGINT NOT NULL,
    patch_count INTEGER NOT NULL,
    patches JSONB NOT NULL,
    created_at TIMESTAMPTZ NOT NULL
  )`,
  `CREATE INDEX IF NOT EXISTS idx_state_patches_height ON state_patches (block_height DESC)`,
];

function shieldedTable(name: string, extraColumns: string, unique: string): string {
  return `CREATE TABLE IF NOT EXISTS ${name} (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    block_height BIGINT NOT NULL REFERENCES blocks(height) ON DELETE CASCADE,
    tx_hash TEXT NOT NULL REFERENCES transactions(hash) ON DELETE CASCADE,
    tx_index INTEGER NOT NULL,
    contract TEXT NOT NULL,
    function TEXT NOT NULL,
    action TEXT NOT NULL,
    output_index INTEGER NOT NULL,
    note_index INTEGER,
    commitment TEXT NOT NULL,
    new_root TEXT NOT NULL,
    payload_hash TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL${extraColumns},
    ${unique}
  )`;
}
