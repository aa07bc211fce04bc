import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { parseJsonExact } from 'chainhost/chain';
import type { BlockSource } from '../block/chain-block-source.js';
import type { BdsDatabase } from '../database/bds-database.js';
import { prepareSchema, resetSchema, type SchemaOwner } from '../database/bds-schema.js';
import { SCHEMA_VERSION } from '../database/schema-v7.js';
import type { Spool } from '../follower/spool.js';
import { WriterLock } from '../follower/writer-lock.js';
import { jsonText } from '../block/json-text.js';
import { bulkInsert, quoteIdent } from '../writer/bulk-insert.js';
import type { Progress } from './progress.js';
import { SNAPSHOT_FORMAT, SNAPSHOT_FORMAT_VERSION, SnapshotError, type SnapshotHeader, type SnapshotManifest } from './snapshot-format.js';
import { snapshotTables, tableLayout } from './snapshot-tables.js';

/**
 * `chain-bds-snapshot import` (bds.md §9.2): first reads the whole archive and verifies it
 * (format and schema version, row counts and checksums against the manifest), then checks it
 * against the configured RPC source (chain id, and the block hash and app hash at the indexed
 * height), and only then — holding the writer lock — resets the schema and loads every table in
 * one transaction, resets the identity sequences and compacts the spool.
 */
export interface ImportOptions {
  db: BdsDatabase;
  owners: readonly SchemaOwner[];
  spool: Spool;
  inputPath: string;
  /** The configured RPC source, and its chain id. */
  source: BlockSource;
  chainId: () => Promise<string>;
  progress?: Progress;
  log?: (line: string) => void;
}

interface Verified {
  header: SnapshotHeader;
  manifest: SnapshotManifest;
}

const BATCH = 1000;

async function* lines(path: string): AsyncGenerator<string> {
  const rl = createInterface({ input: createReadStream(path).pipe(createGunzip()), crlfDelay: Infinity });
  for await (const line of rl) if (line.length) yield line;
}

function parseLine(line: string, n: number): any {
  try {
    return /\d{16,}/.test(line) ? parseJsonExact(line) : JSON.parse(line);
  } catch (err) {
    throw new SnapshotError(`snapshot line ${n} is not JSON: ${(err as Error).message}`);
  }
}

export async function verifySnapshot(path: string): Promise<Verified> {
  if (!existsSync(path)) throw new SnapshotError(`snapshot ${path} does not exist`);
  let header: SnapshotHeader | null = null;
  let manifest: SnapshotManifest | null = null;
  const counts: Record<string, number> = {};
  const hashes = new Map<string, ReturnType<typeof createHash>>();
  let n = 0;
  try {
    for await (const line of lines(path)) {
      n++;
      if (manifest) throw new SnapshotError(`snapshot has data after its manifest (line ${n})`);
      if (n === 1) {
        header = parseLine(line, n).header ?? null;
        if (!header || header.format !== SNAPSHOT_FORMAT) throw new SnapshotError(`${path} is not a BDS snapshot (no ${SNAPSHOT_FORMAT} header)`);
        if (header.format_version !== SNAPSHOT_FORMAT_VERSION) throw new SnapshotError(`unsupported BDS snapshot format version ${header.format_version} (this runtime reads ${SNAPSHOT_FORMAT_VERSION})`);
        if (header.schema_version !== SCHEMA_VERSION) throw new SnapshotError(`BDS snapshot schema version mismatch: snapshot ${header.schema_version}, runtime ${SCHEMA_VERSION}`);
        if (!header.indexed) throw new SnapshotError('BDS snapshot indexed metadata missing');
        if (header.indexed.indexed_height !== null && (!header.indexed.indexed_block_hash || !header.indexed.indexed_app_hash)) {
          throw new SnapshotError('BDS snapshot indexed metadata missing: indexed_block_hash and indexed_app_hash are required with indexed_height');
        }
        continue;
      }
      if (line.startsWith('{"manifest":')) {
        manifest = parseLine(line, n).manifest as SnapshotManifest;
        continue;
      }
      const table = /^\{"r":.*,"t":"([A-Za-z_][A-Za-z0-9_]*)"\}$/.exec(line)?.[1];
      if (!table) throw new SnapshotError(`snapshot line ${n} is not a table row`);
      counts[table] = (counts[table] ?? 0) + 1;
      if (!hashes.has(table)) hashes.set(table, createHash('sha256'));
      hashes.get(table)!.update(line + '\n');
    }
  } catch (err) {
    if (err instanceof SnapshotError) throw err;
    throw new SnapshotError(`snapshot ${path} cannot be read (truncated or not gzip?): ${(err as Error).message}`);
  }
  if (!header) throw new SnapshotError(`snapshot ${path} is empty`);
  if (!manifest) throw new SnapshotError(`snapshot ${path} has no manifest: it is truncated`);
  for (const table of new Set([...Object.keys(manifest.row_counts), ...Object.keys(counts)])) {
    const want = manifest.row_counts[table] ?? 0;
    if ((counts[table] ?? 0) !== want) throw new SnapshotError(`snapshot table ${table}: ${counts[table] ?? 0} rows, the manifest says ${want}`);
    const got = hashes.get(table)?.digest('hex') ?? createHash('sha256').digest('hex');
    if (want > 0 && got !== manifest.sha256[table]) throw new SnapshotError(`snapshot table ${table} fails its checksum (sha256 ${got}, manifest ${manifest.sha256[table]})`);
  }
  return { header, manifest };
}

/** The snapshot must describe the chain the configured RPC source serves. */
export async function checkAgainstSource(header: SnapshotHeader, source: BlockSource, chainId: () => Promise<string>): Promise<void> {
  if (header.chain_id) {
    const network = await chainId();
    if (network !== header.chain_id) throw new SnapshotError(`BDS snapshot chain id mismatch: snapshot ${header.chain_id}, configured RPC source ${network}`);
  }
  const h = header.indexed.indexed_height;
  if (h === null || h <= 0) return;
  const block = await source.fetch(h).catch((err: Error) => {
    throw new SnapshotError(`cannot read block ${h} from the configured RPC source to check the snapshot: ${err.message}`);
  });
  if (block.block_meta.hash.toUpperCase() !== String(header.indexed.indexed_block_hash).toUpperCase()) {
    throw new SnapshotError(`BDS snapshot indexed block hash mismatch at height ${h}: snapshot ${header.indexed.indexed_block_hash}, RPC source ${block.block_meta.hash}`);
  }
  if (block.app_hash.toUpperCase() !== String(header.indexed.indexed_app_hash).toUpperCase()) {
    throw new SnapshotError(`BDS snapshot indexed app hash mismatch at height ${h}: snapshot ${header.indexed.indexed_app_hash}, RPC source ${block.app_hash}`);
  }
}

export async function importSnapshot(o: ImportOptions): Promise<{ snapshot_path: string; indexed_height: number | null; total_rows: number }> {
  const { header, manifest } = await verifySnapshot(o.inputPath);
  await checkAgainstSource(header, o.source, o.chainId);
  const known = new Set(snapshotTables(o.owners));
  const skipped = header.tables.filter((t) => !known.has(t));
  if (skipped.length) o.log?.(`skipping tables no loaded indexer owns: ${skipped.join(', ')}`);
  const lock = new WriterLock(o.db);
  await lock.ensure();
  try {
    await resetSchema(o.db, o.owners);
    await prepareSchema(o.db, o.owners);
    await o.db.knex.transaction(async (trx) => {
      const layouts = new Map<string, NonNullable<Awaited<ReturnType<typeof tableLayout>>>>();
      for (const t of header.tables) {
        if (!known.has(t)) continue;
        const layout = await tableLayout(trx, t);
        if (!layout) throw new SnapshotError(`table ${t} of the snapshot does not exist after the schema was created`);
        layouts.set(t, layout);
      }
      await trx.raw(`DELETE FROM bds_meta`);
      let pending: unknown[][] = [];
      let current: string | null = null;
      let done = 0;
      o.progress?.start(manifest.total_rows, 'BDS snapshot import', 'rows');
      const flush = async () => {
        if (!current || !pending.length) return;
        const layout = layouts.get(current)!;
        await bulkInsert(trx, current, layout.columns, pending, { onConflict: 'ON CONFLICT DO NOTHING', overridingSystemValue: layout.identity.length > 0 });
        done += pending.length;
        o.progress?.update(done);
        pending = [];
      };
      let n = 0;
      for await (const line of lines(o.inputPath)) {
        if (++n === 1 || line.startsWith('{"manifest":')) continue;
        const { r, t } = parseLine(line, n) as { r: Record<string, unknown>; t: string };
        if (!layouts.has(t)) continue;
        if (t !== current || pending.length >= BATCH) {
          await flush();
          current = t;
        }
        const layout = layouts.get(t)!;
        pending.push(layout.columns.map((c) => {
          const v = r[c.name] ?? null;
          if (c.type !== 'jsonb' && c.type !== 'json') return v;
          return v === null && !layout.notNull.has(c.name) ? null : jsonText(v); // JSON as text: a JSON string must stay a string
        }));
      }
      await flush();
      o.progress?.stop();
      for (const layout of layouts.values()) {
        for (const column of layout.identity) {
          await trx.raw(
            `SELECT setval(pg_get_serial_sequence(?, ?), COALESCE((SELECT max(${quoteIdent(column)}) FROM ${quoteIdent(layout.table)}), 0) + 1, false)`,
            [layout.table, column],
          );
        }
      }
    });
    o.spool.removeUpTo(header.indexed.indexed_height ?? -1);
    return { snapshot_path: o.inputPath, indexed_height: header.indexed.indexed_height, total_rows: manifest.total_rows };
  } finally {
    await lock.release();
  }
}
