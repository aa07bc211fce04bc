/**
 * The BDS snapshot archive (chainhost format 1): one gzip stream of JSON lines.
 *
 *   line 1      {"header": {format, format_version, schema_version, chain_id, exported_at, indexed, height_range, tables}}
 *   then        {"t": "<table>", "r": {<row, generated columns left out>}}   — tables in dependency order
 *   last line   {"manifest": {row_counts: {table: n}, sha256: {table: hex}, total_rows}}
 *
 * `sha256[table]` is the SHA-256 of that table's row lines (UTF-8, each followed by "\n"), so
 * import verifies every byte before it writes anything. Values use BDS's row encoding: BIGINT as
 * exact integers, NUMERIC as strings, TIMESTAMPTZ as ISO-8601, JSONB as JSON. A snapshot holds
 * indexed history only — no application state, consensus data or validator configuration.
 * (Upstream writes a tar of metadata.json + <table>.jsonl; this keeps its content, as one stream.)
 */
export const SNAPSHOT_FORMAT = 'chain-bds-snapshot';
export const SNAPSHOT_FORMAT_VERSION = 1;

export interface SnapshotHeader {
  format: string;
  format_version: number;
  schema_version: number;
  chain_id: string | null;
  exported_at: string;
  /** As `/bds_status` `indexed`. */
  indexed: {
    indexed_height: number | null;
    indexed_block_hash: string | null;
    indexed_app_hash: string | null;
    indexed_block_count: number;
    indexed_tx_count: number;
    indexed_block_time_iso: string | null;
  };
  height_range: [number, number] | null;
  /** Tables in the order they follow (parents first). */
  tables: string[];
}

export interface SnapshotManifest {
  row_counts: Record<string, number>;
  sha256: Record<string, string>;
  total_rows: number;
}

export class SnapshotError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SnapshotError';
  }
}

export function defaultSnapshotName(indexedHeight: number | null, now = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');
  return `chain-bds-snapshot-h${indexedHeight ?? ''}-${stamp}.jsonl.gz`;
}
