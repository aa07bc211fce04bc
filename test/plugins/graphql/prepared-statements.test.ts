import { strict as assert } from 'node:assert';
import { statementName, usePreparedStatement } from '../../../plugins/graphql/execution/prepared-statements.js';

/**
 * Named statements (PostgreSQL plans a statement once per connection, as PostGraphile 5 runs
 * its queries) must not pile up on the server: each connection keeps the 100 most recently
 * used, and DEALLOCATEs the one that falls out.
 */
function fakeClient() {
  const sent: string[] = [];
  const client = {
    connection: { parsedStatements: {} as Record<string, string> },
    escapeIdentifier: (name: string) => `"${name}"`,
    query: async (text: string) => {
      sent.push(text);
    },
  };
  return { client, sent };
}

describe('GraphQL prepared statements', function () {
  it('the same text gets the same name, another text another name', function () {
    assert.equal(statementName('SELECT 1'), statementName('SELECT 1'));
    assert.notEqual(statementName('SELECT 1'), statementName('SELECT 2'));
    assert.match(statementName('SELECT 1'), /^gql_[A-Za-z0-9_-]+$/);
  });

  it('keeps at most 100 per connection and deallocates the least recently used', async function () {
    const { client, sent } = fakeClient();
    const names = Array.from({ length: 101 }, (_v, i) => statementName(`SELECT ${i}`));
    for (const name of names.slice(0, 100)) {
      assert.equal(usePreparedStatement(client, name), true);
      client.connection.parsedStatements[name] = 'text'; // as node-postgres records a parsed statement
    }
    usePreparedStatement(client, names[0]!); // used again: now the most recent
    usePreparedStatement(client, names[100]!);
    await new Promise((r) => setImmediate(r));
    assert.deepStrictEqual(sent, [`DEALLOCATE "${names[1]}"`]);
    assert.equal(client.connection.parsedStatements[names[1]!], undefined, 'node-postgres forgets it too');
    assert.equal(client.connection.parsedStatements[names[0]!], 'text');
  });

  it('a client that is not node-postgres (PGlite) runs statements unnamed', function () {
    assert.equal(usePreparedStatement({ query: async () => undefined }, statementName('SELECT 1')), false);
    assert.equal(usePreparedStatement(null, statementName('SELECT 1')), false);
  });
});
