import { join, resolve } from 'node:path';
import { BootError, createToken, definePlugin } from 'chainhost/plugin';
import type { BdsSource } from './database/bds-source.js';
import { openOwnDatabase } from './database/own-database.js';
import { sharedBdsSource } from './database/shared-bds.js';
import { contributionKey, graphqlContributions, type GraphqlContribution, type GraphqlRegistrar } from './graphql-contributions.js';
import { createGraphqlEngine, queryLimitsOf, type GraphqlEngine } from './graphql-engine.js';
import { graphqlConfigSchema, graphqlEnvBindings } from './graphql.config.js';
import { graphqlRouter } from './http/graphql-route.js';

/**
 * The `graphql` plugin: PostGraphile-compatible, read-only GraphQL over the BDS database on
 * its own server (`graphql`, default http://127.0.0.1:5000/graphql). register: provide the
 * `graphql.types` extension point; init: declare the server and its route; start: reach the
 * database (bds's handle in the same host, else its own) and build the schema with every
 * contribution; stop: close what it opened.
 */
export const graphqlPlugin = definePlugin({
  name: 'graphql',
  description: 'Read-only GraphQL over the BDS database with PostGraphile names and shapes (POST /graphql).',
  after: ['bds'],
  config: graphqlConfigSchema,
  env: graphqlEnvBindings,
  register(ctx) {
    const list = ctx.createContributionList<GraphqlContribution>('GraphQL contribution', contributionKey, null);
    // One registrar per contributing plugin: each contribution is recorded under the plugin that made it.
    ctx.provide(graphqlContributions, (contributor): GraphqlRegistrar => ({
      addTable: (table) => list.add(contributor.name, { kind: 'table', table }),
      addQueryFields: (fields) => list.add(contributor.name, { kind: 'fields', fields }),
    }));
    ctx.bind(GraphqlState, { list, engine: null, source: null, owned: false });
  },
  init(ctx) {
    const o = ctx.options;
    const s = ctx.resolve(GraphqlState);
    if (!o.enabled) return;
    if (o.relationPageSize !== null && o.maxPageSize !== null && o.relationPageSize > o.maxPageSize) {
      throw new BootError('config_invalid', `plugins.graphql.relationPageSize=${o.relationPageSize}: must not exceed plugins.graphql.maxPageSize (${o.maxPageSize})`);
    }
    ctx.servers.declare({ name: 'graphql', kind: 'query', host: o.host, port: o.port, publicQuery: o.publicQuery, bodyLimitBytes: o.bodyLimitBytes });
    const engine = () => {
      if (!s.engine) throw new Error('GraphQL is not started');
      return s.engine;
    };
    ctx.routes.add({
      server: 'graphql',
      id: 'graphql:http',
      capability: 'read',
      router: graphqlRouter({
        path: o.path, graphiql: o.graphiql, bodyLimitBytes: o.bodyLimitBytes,
        limits: { ...queryLimitsOf(o), rowEstimate: (table) => s.engine?.rowEstimates.get(table) ?? null },
        schema: () => engine().schema,
        documents: () => engine().documents,
        context: () => engine().context(),
        log: ctx.log,
      }),
    });
  },
  async start(ctx) {
    const o = ctx.options;
    const s = ctx.resolve(GraphqlState);
    if (!o.enabled) return;
    const shared = sharedBdsSource(ctx);
    let source: BdsSource;
    if (shared) source = shared;
    else {
      try {
        source = await openOwnDatabase({
          // A read copy (CHAIN_BDS_READ_DATABASE_URL) serves GraphQL when set: GraphQL only reads.
          url: o.readDatabaseUrl ?? o.databaseUrl,
          pgliteDir: o.pgliteDir ? resolve(ctx.settings.home, o.pgliteDir) : join(ctx.settings.home, 'bds'),
          schema: o.schema,
          poolMax: o.poolMaxSize,
          statementTimeoutMs: o.statementTimeoutMs,
          log: ctx.log,
        });
      } catch (err) {
        throw new BootError('plugin_failed', `graphql cannot open the BDS database: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
      }
      s.owned = true;
    }
    s.source = source;
    try {
      s.engine = createGraphqlEngine(source, o, s.list.values(), ctx.log);
    } catch (err) {
      throw new BootError('plugin_failed', `graphql cannot build its schema: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    // Not awaited: on a fresh home BDS is still creating its database, and the server need not wait to bind.
    void warnWhenTablesMissing(source, ctx.log);
    // The query cost judges a connection by its table's rows: loaded in the background (an unknown table costs as before).
    void s.engine.rowEstimates.refresh();
    ctx.log.info(`GraphQL reads ${source.describe()}`);
  },
  async stop(ctx) {
    const s = ctx.tryResolve(GraphqlState);
    if (s?.owned && s.source) await s.source.close();
    if (s) {
      s.engine = null;
      s.source = null;
    }
  },
});

interface PluginState {
  list: { add(plugin: string, value: GraphqlContribution): void; values(): GraphqlContribution[] };
  engine: GraphqlEngine | null;
  source: BdsSource | null;
  owned: boolean;
}

/** This plugin instance's state, bound in its own scope: the plugin value is shared by every host in the process. */
const GraphqlState = createToken<PluginState>('graphql.state');

async function warnWhenTablesMissing(source: BdsSource, log: { warn(m: string, f?: Record<string, unknown>): void }): Promise<void> {
  try {
    const r = await source.knex.raw(`SELECT to_regclass(quote_ident(?) || '.blocks') IS NOT NULL AS present`, [source.schema]);
    if (!(r.rows[0] as { present: boolean }).present) {
      log.warn(`no BDS tables in ${source.describe()} yet; queries fail until BDS has created them`);
    }
  } catch (err) {
    log.warn(`the BDS database did not answer at start; queries fail until it does`, { reason: err instanceof Error ? err.message : String(err) });
  }
}
