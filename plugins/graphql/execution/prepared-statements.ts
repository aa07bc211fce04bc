import { createHash } from 'node:crypto';

/**
 * Named (prepared) statements on node-postgres connections, as PostGraphile 5 (@dataplan/pg)
 * runs its queries: PostgreSQL parses and plans a statement once per connection instead of
 * once per request (planning a three-level LATERAL read costs about as much as running it).
 * Each connection keeps at most `PER_CONNECTION` of them, least recently used first out
 * (DEALLOCATE), so arbitrary queries cannot pile up statements on the server.
 */
const PER_CONNECTION = 100;

/** The slice of a node-postgres client this needs (its parsed-statement bookkeeping is internal). */
interface PgConnection {
  query(text: string): Promise<unknown>;
  escapeIdentifier(name: string): string;
  connection?: { parsedStatements?: Record<string, string> };
}

const recent = new WeakMap<object, Map<string, true>>();

/** `gql_` and a digest of the text: the same statement gets the same name on every connection. */
export function statementName(text: string): string {
  return `gql_${createHash('sha1').update(text).digest('base64url')}`;
}

/**
 * Marks `name` used on `client` and deallocates the least recently used statement past the
 * bound. Returns false when the client is not a node-postgres one (then run it unnamed).
 */
export function usePreparedStatement(client: unknown, name: string): boolean {
  const pg = client as PgConnection;
  const parsed = pg?.connection?.parsedStatements;
  if (!parsed || typeof pg.query !== 'function') return false;
  let names = recent.get(pg);
  if (!names) recent.set(pg, (names = new Map()));
  names.delete(name);
  names.set(name, true);
  if (names.size > PER_CONNECTION) {
    const oldest = names.keys().next().value!;
    names.delete(oldest);
    if (parsed[oldest]) {
      // Queued on this client before the next query; a failure only leaves a statement behind.
      pg.query(`DEALLOCATE ${pg.escapeIdentifier(oldest)}`).then(() => delete parsed[oldest], () => undefined);
    }
  }
  return true;
}
