import { z } from 'zod';
import type { EnvBinding } from 'chainhost/plugin';

/**
 * `plugins.graphql` options. Address defaults follow the spec (`http://127.0.0.1:5000/graphql`);
 * the body cap and statement timeout follow upstream's PostGraphile set-up (1 MiB, 10 s); the
 * page cap follows graphql.md §6 (suggested maximum 1000). Depth and cost limits are
 * chainhost's own.
 */
const port = z.number({ error: 'must be a port number' }).int('must be an integer').min(0, 'must be 0..65535').max(65535, 'must be 0..65535');
const int = (min: number, max: number) => z.number({ error: `must be an integer ${min}..${max}` }).int(`must be an integer ${min}..${max}`).min(min, `must be ${min}..${max}`).max(max, `must be ${min}..${max}`);

export const graphqlConfigSchema = z.strictObject({
  /** False keeps the plugin loaded but serves nothing and opens no database. */
  enabled: z.boolean().default(true),
  host: z.string().min(1, 'must not be empty').default('127.0.0.1'),
  port: port.default(5000),
  path: z.string().regex(/^\/[A-Za-z0-9._~-]+(?:\/[A-Za-z0-9._~-]+)*$/, 'must be a URL path such as /graphql').default('/graphql'),
  /** `--public-query`: with CHAIN_PUBLIC_QUERY_ENABLED=1 lets GraphQL bind beyond loopback (spec 5.6). */
  publicQuery: z.boolean().default(false),
  /**
   * Serve the GraphQL IDE (Ruru, PostGraphile's GraphiQL, from node_modules — no CDN) at `/graphiql`
   * and to a browser's GET of the path. On: a user expects one there (upstream's newest preset turns it off).
   */
  graphiql: z.boolean().default(true),
  /**
   * Used only when no `bds` plugin runs in this host: a PostgreSQL URL (CHAIN_BDS_DATABASE_URL,
   * as the bds plugin's; `readDatabaseUrl` ← CHAIN_BDS_READ_DATABASE_URL, a read copy, wins:
   * GraphQL only reads), else PGlite in `pgliteDir` (default `<home>/bds`), which must not be
   * open in another process.
   */
  databaseUrl: z.string().min(1).nullable().default(null),
  readDatabaseUrl: z.string().min(1).nullable().default(null),
  pgliteDir: z.string().min(1).nullable().default(null),
  /** Schema holding the BDS tables when opened here (`public` as upstream). */
  schema: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, 'must be a plain SQL identifier').default('public'),
  poolMaxSize: int(1, 100).default(10),
  /** Per SQL statement; the database cancels it (PGlite: the request gives up waiting). */
  statementTimeoutMs: int(100, 600_000).default(10_000),
  bodyLimitBytes: int(1024, 16 * 1024 * 1024).default(1024 * 1024),
  /**
   * Largest `first`/`last`, and the page size of a root connection when a query gives neither.
   * Null (default): no cap and no default page, as upstream's PostGraphile; `maxRowsRead` bounds
   * the work instead.
   */
  maxPageSize: int(1, 10_000_000).nullable().default(null),
  /**
   * Page size of a relation connection (`Block.transactionsByBlockHeight`) when the query gives
   * neither `first` nor `last`; `pageInfo.hasNextPage` tells when more exist. Null (default):
   * every related row, as upstream.
   */
  relationPageSize: int(1, 10_000_000).nullable().default(null),
  /**
   * Rows one request may read (pages, lookups and relations together). Each `totalCount`,
   * `aggregates` or `groupedAggregates` counts, before anything runs, as reading every row its
   * connection matches (the table's row estimate, at most this limit), so aliased counts add up.
   * Past it the request fails with `RESULT_TOO_LARGE` — never a silently shortened page.
   */
  maxRowsRead: int(1, 100_000_000).default(100_000),
  /**
   * Deepest nesting of a query in relation levels (a root field, a relation, `node`; not the
   * `nodes`/`edges`/`pageInfo` wrappers between them); introspection has its own fixed limit.
   */
  maxDepth: int(2, 100).default(16),
  /**
   * Largest estimated cost of a document before it runs: its object and connection fields
   * (every alias on its own) × the rows they are read for — `first`/`last` × the parents, but no
   * more than the table holds (its row estimate) or `maxRowsRead` — introspection lists × the
   * schema's size.
   */
  maxComplexity: int(10, 100_000_000).default(250_000),
  /**
   * JSON columns as JSON values instead of JSON text. Off, as upstream's preset (makeV4Preset
   * without `dynamicJson` sets `jsonScalarAsString`: `data` is `"{\"amount\":\"12.5\"}"` and a
   * JSON argument is JSON text); on for clients written for PostGraphile v4 `-j`.
   */
  dynamicJson: z.boolean().default(false),
  /** Largest query document, in GraphQL tokens. */
  maxTokens: int(100, 1_000_000).default(10_000),
});

/** The BDS database, when this plugin opens it itself: the same variables as the bds plugin's. */
export const graphqlEnvBindings: readonly EnvBinding[] = [
  { variable: 'CHAIN_GRAPHQL_HOST', path: ['host'], type: 'string' },
  { variable: 'CHAIN_GRAPHQL_PORT', path: ['port'], type: 'integer' },
  { variable: 'CHAIN_BDS_DATABASE_URL', path: ['databaseUrl'], type: 'string', secret: true },
  { variable: 'CHAIN_BDS_READ_DATABASE_URL', path: ['readDatabaseUrl'], type: 'string', secret: true },
];

export type GraphqlOptions = z.output<typeof graphqlConfigSchema>;
export type GraphqlOptionsInput = z.input<typeof graphqlConfigSchema>;
