import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, renameSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import type { Knex } from 'knex';
import { jsonText } from '../block/json-text.js';
import type { BdsDatabase } from '../database/bds-database.js';
import { quoteIdent } from '../writer/bulk-insert.js';
import type { SchemaOwner } from '../database/bds-schema.js';
import { SCHEMA_VERSION } from '../database/schema-v7.js';
import { indexedSummary } from '../reads/block-reads.js';
import type { Progress } from './progress.js';
import { SNAPSHOT_FORMAT, SNAPSHOT_FORMAT_VERSION, SnapshotError, type SnapshotHeader, type SnapshotManifest } from './snapshot-format.js';
import { snapshotTables, tableLayout, type TableLayout } from './snapshot-tables.js';

/**
 * `chain-bds-snapshot export`: every BDS table (contributed projections included) in one
 * read-only, repeatable-read transaction — a consistent cut even while nothing else is stopped —
 * written to `<file>.part` and renamed when complete, so a crash never leaves a valid-looking
 * truncated archive.
 */
export interface ExportOptions {
  db: BdsDatabase;
  owners: readonly SchemaOwner[];
  outputPath: string;
  force?: boolean;
  progress?: Progress;
}

const PAGE = 5000;

export async function exportSnapshot(o: ExportOptions): Promise<{ output_path: string; indexed_height: number | null; total_rows: number }> {
  if (existsSync(o.outputPath) && !o.force) throw new SnapshotError(`${o.outputPath} exists; pass --force to overwrite it`);
  const part = `${o.outputPath}.part`;
  const gzip = createGzip({ level: 6 });
  const file = createWriteStream(part);
  gzip.pipe(file);
  const write = async (line: string) => {
    if (!gzip.write(line + '\n')) await once(gzip, 'drain');
  };
  try {
    const manifest = await o.db.knex.transaction(async (trx) => {
      if (o.db.kind === 'postgres') await trx.raw('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      const summary = await indexedSummary(trx as unknown as Knex);
      const chainId = ((await trx.raw(`SELECT value FROM bds_meta WHERE key = 'chain_id'`)).rows[0] as { value: string } | undefined)?.value ?? null;
      const layouts: TableLayout[] = [];
      for (const t of snapshotTables(o.owners)) {
        const layout = await tableLayout(trx, t); // one connection: one query at a time
        if (layout) layouts.push(layout);
      }
      const height = summary.indexed_height === null ? null : Number(summary.indexed_height);
      const header: SnapshotHeader = {
        format: SNAPSHOT_FORMAT, format_version: SNAPSHOT_FORMAT_VERSION, schema_version: SCHEMA_VERSION, chain_id: chainId,
        exported_at: new Date().toISOString().replace(/Z$/, '+00:00'),
        indexed: {
          indexed_height: height, indexed_block_hash: (summary.indexed_block_hash as string) ?? null, indexed_app_hash: (summary.indexed_app_hash as string) ?? null,
          indexed_block_count: Number(summary.indexed_block_count), indexed_tx_count: Number(summary.indexed_tx_count),
          indexed_block_time_iso: (summary.indexed_block_time_iso as string) ?? null,
        },
        height_range: height === null ? null : [0, height],
        tables: layouts.map((l) => l.table),
      };
      await write(jsonText({ header }, { sortKeys: true }));
      const result: SnapshotManifest = { row_counts: {}, sha256: {}, total_rows: 0 };
      const total = layouts.length;
      o.progress?.start(total, 'BDS snapshot export', 'tables');
      let done = 0;
      for (const layout of layouts) {
        const hash = createHash('sha256');
        let count = 0;
        for await (const rows of pages(trx, layout)) {
          for (const row of rows) {
            const line = jsonText({ r: row, t: layout.table }, { sortKeys: true });
            hash.update(line + '\n');
            await write(line);
            count++;
          }
        }
        result.row_counts[layout.table] = count;
        result.sha256[layout.table] = hash.digest('hex');
        result.total_rows += count;
        o.progress?.update(++done, { rows: result.total_rows });
      }
      o.progress?.stop();
      await write(jsonText({ manifest: result }, { sortKeys: true }));
      return { header, result };
    });
    gzip.end();
    await once(file, 'close');
    renameSync(part, o.outputPath);
    return { output_path: o.outputPath, indexed_height: manifest.header.indexed.indexed_height, total_rows: manifest.result.total_rows };
  } catch (err) {
    gzip.destroy();
    file.destroy();
    rmSync(part, { force: true });
    throw err;
  }
}

async function* pages(trx: Knex.Transaction, layout: TableLayout): AsyncGenerator<Array<Record<string, unknown>>> {
  const cols = layout.columns.map((c) => quoteIdent(c.name)).join(', ');
  const table = quoteIdent(layout.table);
  if (!layout.key) {
    for (let offset = 0; ; offset += PAGE) {
      const rows = (await trx.raw(`SELECT ${cols} FROM ${table} ORDER BY ${layout.columns.map((_, i) => i + 1).join(', ')} LIMIT ? OFFSET ?`, [PAGE, offset])).rows;
      if (!rows.length) return;
      yield rows;
    }
  }
  const key = quoteIdent(layout.key);
  let last: unknown = undefined;
  for (;;) {
    const rows = (last === undefined
      ? await trx.raw(`SELECT ${cols} FROM ${table} ORDER BY ${key} LIMIT ?`, [PAGE])
      : await trx.raw(`SELECT ${cols} FROM ${table} WHERE ${key} > ? ORDER BY ${key} LIMIT ?`, [typeof last === 'bigint' ? last.toString() : (last as string), PAGE])
    ).rows as Array<Record<string, unknown>>;
    if (!rows.length) return;
    yield rows;
    last = rows[rows.length - 1]![layout.key];
  }
}
