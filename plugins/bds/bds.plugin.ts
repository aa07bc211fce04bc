import { BootError, CoreTokens, createToken, definePlugin, type PluginContext } from 'chainhost/plugin';
import { assertSameChain } from './follower/same-chain.js';
import { ChainBlockSource } from './block/chain-block-source.js';
import { bdsConfigSchema, bdsEnvBindings, type BdsOptions } from './bds.config.js';
import { BdsService } from './bds-service.js';
import { BdsInternalTokens } from './bds-internal-tokens.js';
import { BdsTokens, type BdsDatabaseHandle } from './bds-tokens.js';
import { BdsSchemaError } from './database/bds-schema.js';
import { WriterLockHeldError } from './follower/writer-lock.js';
import { bdsIndexers, type BdsIndexer, type BdsIndexerRegistrar } from './indexer-point.js';
import { addBdsGauges, bdsDbErrorCounter } from './status/bds-metrics.js';

/**
 * The BDS plugin (wiring only): provides the indexer extension point and the database handle
 * in register(); opens the database and contributes the query paths and the `/metrics` figures
 * in init() (the indexed-read tools are the query plugin's, clients of these paths); checks the schema and starts the follower in start(). A database that is down at start
 * is not fatal — blocks spool until it returns — but an incompatible schema or a second live
 * writer is.
 */
interface BdsRuntime {
  service: BdsService | null;
  indexers: () => readonly BdsIndexer[];
  /** Settles once indexing has started: at start(), or when a fresh home's background PGlite start has finished. */
  indexing: Promise<void>;
}

/** This plugin instance's runtime, bound in its own scope (two hosts in one process each get theirs). */
const BdsRuntimeToken = createToken<BdsRuntime>('bds.runtime');

function runtimeOf(ctx: PluginContext<BdsOptions>): BdsRuntime {
  return ctx.resolve(BdsRuntimeToken);
}

function requireService(rt: BdsRuntime): BdsService {
  if (!rt.service) throw new Error('the BDS database is not open yet (available from init on)');
  return rt.service;
}

/** Schema, lock, then the follower. A database down at start is not fatal (blocks spool); an incompatible schema or a second writer is. */
async function startIndexing(ctx: PluginContext<BdsOptions>, service: BdsService): Promise<void> {
  try {
    await service.prepare();
    await assertSameChain(service.db.knex, ctx.resolve(CoreTokens.chainNode), service.db.describe());
  } catch (err) {
    if (err instanceof BdsSchemaError || err instanceof WriterLockHeldError || err instanceof BootError) throw err;
    ctx.log.warn(`BDS database unavailable at start (${service.db.describe()}); blocks will spool until it is back`, { error: (err as Error).message });
  }
  service.start();
  ctx.log.info(`BDS indexing into ${service.db.describe()}; spool ${service.spool.dir}`);
  if (service.replica) ctx.log.info(`BDS reads from ${service.readDb.describe()} (waiting at most ${ctx.options.readWaitMs} ms for a height the writer has)`);
}

/** A start-up notice for the person at the terminal, on stderr like the host's banner (never stdout: MCP stdio owns it). */
function say(line: string): void {
  process.stderr.write(`${line}\n`);
}

export const bdsPlugin = definePlugin({
  name: 'bds',
  description: 'Blockchain Data Service: a PostgreSQL (or embedded PGlite) index of finalized blocks with the BDS query paths (the query plugin\'s indexed-read tools read them)',
  requires: [],
  after: ['devnet'],
  config: bdsConfigSchema,
  env: bdsEnvBindings,
  register(ctx) {
    const contributed = ctx.createContributionList<BdsIndexer>('bds indexer', (i) => i.name);
    const rt: BdsRuntime = { service: null, indexers: () => contributed.values(), indexing: Promise.resolve() };
    ctx.bind(BdsRuntimeToken, rt);
    // Each contributing plugin gets its own registrar, so an indexer is recorded under (and a duplicate names) the plugin that added it.
    ctx.provide(bdsIndexers, (contributor): BdsIndexerRegistrar => ({
      addIndexer: (indexer) => contributed.add(contributor.name, indexer),
      knex: () => requireService(rt).readDb.knex,
    }));
    // Readers (GraphQL, contributed query paths) get the read pool: the read copy when one is configured.
    const handle: BdsDatabaseHandle = {
      get knex() { return requireService(rt).readDb.knex; },
      get schema() { return requireService(rt).readDb.schema; },
      get kind() { return requireService(rt).readDb.kind; },
      status: () => requireService(rt).status.status(),
      indexedHeight: () => rt.service?.follower.indexedHeight ?? null,
      waitForHeight: (height, timeoutMs) => requireService(rt).waitForReadableHeight(height, timeoutMs),
      whenIndexing: () => rt.indexing,
      describe: () => rt.service?.readDb.describe() ?? 'BDS (not open yet)',
      close: async () => undefined,
    };
    ctx.provide(BdsTokens.database, handle);
    ctx.provide(BdsInternalTokens.service, { service: () => requireService(rt) });
  },
  async init(ctx) {
    const rt = runtimeOf(ctx);
    const node = ctx.resolve(CoreTokens.chainNode);
    const metrics = ctx.resolve(CoreTokens.metrics);
    const onDbError = bdsDbErrorCounter(metrics);
    rt.service = await BdsService.open({
      options: ctx.options,
      home: ctx.settings.home,
      source: new ChainBlockSource(node),
      indexers: rt.indexers,
      log: ctx.log,
      onDbError,
      // A fresh home's PGlite takes initdb; the host's servers need not wait for it (start() says so).
      backgroundStart: true,
    });
    const opened = rt.service;
    ctx.onStop(async () => {
      await opened.stop();
      if (rt.service === opened) rt.service = null;
    });
    addBdsGauges(metrics, () => rt.service);
    for (const path of rt.service.queryPaths()) ctx.queryPaths.add(path);
  },
  async start(ctx) {
    const service = requireService(runtimeOf(ctx));
    if (!service.writes) {
      ctx.log.info(`BDS read-only (plugins.bds.writer=false): query paths over ${service.readDb.describe()}; the writer runs elsewhere`);
      return;
    }
    if (!service.db.isReady) {
      // A fresh home: the index database is created in the background while every other surface serves.
      say(`BDS: initialising the index database (${service.db.describe()}, first start); the other surfaces serve meanwhile, the indexed reads answer once it is ready`);
      const started = performance.now();
      let stopped = false;
      ctx.onStop(() => {
        stopped = true;
      });
      const rt = runtimeOf(ctx);
      rt.indexing = service.db.ready.then(async () => {
        if (stopped) return;
        await startIndexing(ctx, service);
        say(`BDS: index database ready after ${((performance.now() - started) / 1000).toFixed(1)} s; indexing from the node`);
      }).catch((err: unknown) => ctx.log.error(`BDS cannot start its index database (${service.db.describe()})`, { error: err instanceof Error ? err.message : String(err) }));
      return;
    }
    await startIndexing(ctx, service);
  },
});
