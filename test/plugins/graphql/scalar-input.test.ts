import { strict as assert } from 'node:assert';
import { forEachFixture, type GraphqlFixture } from './support/graphql-fixture.js';

/**
 * Issue 31 item 5: Datetime, BigInt and BigFloat arguments take what PostgreSQL (and so
 * PostGraphile, which hands the text to it) takes — PostgreSQL's own output form `+00`, a
 * `UTC` zone, ISO 8601 basic format, `infinity`, a `+` sign — and still refuse what it refuses,
 * naming the argument. The corpus (`scalar/*`) has PostGraphile confirm the answers.
 */
describe('GraphQL: scalar input as PostgreSQL takes it', function () {
  forEachFixture((fixture) => {
    let f: GraphqlFixture;
    beforeEach(function () {
      f = fixture();
    });
    const heightsFrom = async (datetime: string) =>
      (await f.data('query ($t: Datetime!) { allBlocks(filter: {blockTimeIso: {greaterThanOrEqualTo: $t}}, orderBy: HEIGHT_ASC) { nodes { height } } }', { t: datetime }))
        .allBlocks.nodes.map((n: any) => Number(n.height));

    it('Datetime: PostgreSQL output form, UTC and GMT zones, offsets without colons, basic format, date only', async function () {
      for (const t of ['2026-01-01T00:00:04+00', '2026-01-01 00:00:04+00', '2026-01-01 00:00:04 UTC', '2026-01-01T00:00:04GMT', '2026-01-01T01:30:04+0130',
        '20260101T000004Z', '20260101T000004', '20260101 000004', '2026-01-01T00:00:03.5Z', '2026-01-01T00:00:04 +00:00']) {
        assert.deepEqual(await heightsFrom(t), [4, 5, 6], t);
      }
      assert.deepEqual(await heightsFrom('2026-01-01'), [0, 1, 2, 3, 4, 5, 6]);
    });

    it('Datetime: infinity and -infinity', async function () {
      assert.deepEqual(await heightsFrom('infinity'), []);
      assert.deepEqual(await heightsFrom('-infinity'), [0, 1, 2, 3, 4, 5, 6]);
    });

    it('Datetime: what PostgreSQL refuses fails the field and names the argument', async function () {
      for (const t of ['2026-13-01', '2026-02-29T00:00:00Z', '2026-01-01T25:00:00Z', 'yesterday-ish', '+infinity', '2026-01-01T00:00:00+']) {
        const result = await f.run(`{ allBlocks(filter: {blockTimeIso: {greaterThan: ${JSON.stringify(t)}}}) { totalCount } }`);
        assert.equal((result.data as any)?.allBlocks, null, t);
        assert.match(result.errors?.[0]?.message ?? '', /Datetime cannot represent .*blockTimeIso/, t);
      }
    });

    it('BigInt and BigFloat: a leading + and surrounding spaces, as PostgreSQL reads them', async function () {
      const data = await f.data('{ a: blockByHeight(height: "+5") { height } b: allBlocks(filter: {height: {lessThan: " +2 "}}) { totalCount } c: allRewards(filter: {value: {greaterThan: "+0"}}) { totalCount } d: allRewards(filter: {value: {lessThan: "Infinity"}}) { totalCount } }');
      assert.deepEqual(data.a, { height: '5' });
      assert.equal(data.b.totalCount, 2);
      assert.ok(data.c.totalCount > 0);
      assert.equal(data.d.totalCount, data.c.totalCount + (await f.data('{ allRewards(filter: {value: {lessThanOrEqualTo: "0"}}) { totalCount } }')).allRewards.totalCount);
      const bad = await f.run('{ blockByHeight(height: "+-5") { height } }');
      assert.match(bad.errors?.[0]?.message ?? '', /BigInt cannot represent "\+-5"/);
    });
  });
});
