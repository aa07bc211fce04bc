import { parseJsonExact } from '../../../../core/chain/canonical-json.js';
import { silentLogger } from '../../../../core/logger.js';
import { parseQueryPath, queryRouteOf, type QueryAnswer } from '../../../../core/query/query-path.js';
import { defaultBdsOptions, type BdsOptions } from '../../../../plugins/bds/bds.config.js';
import { BdsService } from '../../../../plugins/bds/bds-service.js';
import type { BlockSource } from '../../../../plugins/bds/block/chain-block-source.js';
import type { BdsIndexer } from '../../../../plugins/bds/indexer-point.js';
import type { TestDatabase } from '../../../support/databases.js';

/** A BDS service on a test database with fast timings, and a query helper that decodes answers. */
export function testOptions(db: TestDatabase, overrides: Partial<BdsOptions> = {}): BdsOptions {
  return defaultBdsOptions({
    databaseUrl: db.url, pgliteDir: db.pgliteDir, schema: db.schema, catchupPollMs: 25, retryDelayMs: 50, ...overrides,
  });
}

export async function openService(db: TestDatabase, source: BlockSource, overrides: Partial<BdsOptions> = {}, indexers: BdsIndexer[] = []): Promise<BdsService> {
  return BdsService.open({ options: testOptions(db, overrides), home: db.home, source, log: silentLogger, indexers: () => indexers });
}

export interface DecodedAnswer {
  info: string;
  value: unknown;
  raw: QueryAnswer;
}

/** Resolves `path` against the service's query paths as abci_query would, and parses the value. */
export async function query(service: BdsService, path: string): Promise<DecodedAnswer> {
  const parsed = parseQueryPath(path);
  const definition = service.queryPaths().find((d) => queryRouteOf(d.pattern) === parsed.route);
  if (!definition) throw new Error(`no BDS query path for route ${parsed.route}`);
  const raw = await definition.handler(parsed, {});
  return { info: raw.info, value: raw.text === null ? null : parseJsonExact(raw.text), raw };
}

/** `query(...)` for paths that must answer a value; returns it typed loosely. */
export async function q<T = any>(service: BdsService, path: string): Promise<T> {
  return (await query(service, path)).value as T;
}

export async function waitFor(predicate: () => boolean | Promise<boolean>, timeoutMs = 60_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await predicate()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

export async function waitIndexed(service: BdsService, height: number, timeoutMs = 60_000): Promise<void> {
  if (!(await service.follower.waitForHeight(height, timeoutMs))) {
    const status = await service.status.status();
    throw new Error(`height ${height} not indexed within ${timeoutMs} ms: ${JSON.stringify(status, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))}`);
  }
}
