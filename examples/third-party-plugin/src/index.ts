// A third-party chainhost plugin, a package of its own: it imports only chainhost's published
// entry points (`chainhost/plugin`, `chainhost/chain`), type-checks against their declarations and
// ships as compiled JavaScript. Load it by path or package name from a config:
//   { "plugins": { "./examples/third-party-plugin": { "greeting": "hi" } } }
import { ApiError, QueryPathError, Router, bdsIndexers, definePlugin, defineTool, z, type IndexedBlock } from 'chainhost/plugin';
import { isAddress } from 'chainhost/chain';

const TABLE = 'example_transfers';

const greeterOptions = z.strictObject({
  /** How a greeting starts. */
  greeting: z.string().min(1).max(40).default('hello'),
});

export default definePlugin({
  name: 'example-greeter',
  description: 'Example third-party plugin: an example_greet read tool, GET /example/greeting on the tool server, and a BDS projection of currency transfers served at /example_transfers/<address>.',
  config: greeterOptions,

  init(ctx) {
    const greet = (name: string) => `${ctx.options.greeting}, ${name}`;

    ctx.tools.add(defineTool({
      name: 'example_greet',
      title: 'Greet someone',
      description: 'Returns a greeting for the given name. Pure; touches no chain state.',
      capability: 'read',
      hints: { idempotentHint: true, openWorldHint: false },
      input: z.object({ name: z.string().min(1).max(100).describe('who to greet') }),
      output: z.object({ message: z.string() }),
      async run({ name }) {
        // A caller's mistake is an ApiError: every transport answers it with this status and code.
        if (name.trim() === '') throw new ApiError(422, 'not_greetable', 'name must not be blank', { field: 'name' });
        return { message: greet(name) };
      },
    }));

    // The tool server exists only when the command serves one (chain-host with tools.http, chain-mcp-http).
    if (ctx.servers.isDeclared('tools')) {
      const router = new Router();
      router.get('/example/greeting', (http) => {
        const name = typeof http.query.name === 'string' && http.query.name ? http.query.name.slice(0, 100) : 'world';
        http.body = { message: greet(name) };
      });
      ctx.routes.add({ server: 'tools', id: 'example-greeter', capability: 'read', router });
    }

    // With the bds plugin loaded: a projection written inside each block's transaction, and its query path.
    const bds = ctx.tryUse(bdsIndexers);
    if (!bds) return;
    bds.addIndexer({
      name: 'example-transfers',
      capability: 'read',
      tables: [TABLE],
      migrations: [{
        name: '0001_example_transfers',
        async up(knex) {
          await knex.schema.createTable(TABLE, (t) => {
            t.bigInteger('event_id').primary().references('id').inTable('events').onDelete('CASCADE');
            t.bigInteger('block_height').notNullable();
            t.text('sender').notNullable().index();
          });
        },
      }],
      async apply(block: IndexedBlock, trx) {
        const rows = block.events
          .filter((e) => e.contract === 'currency' && e.event === 'Transfer')
          .map((e) => ({ event_id: String(e.id), block_height: block.height, sender: e.signer }));
        // Idempotent: a retried batch writes the same rows again.
        if (rows.length) await trx(TABLE).insert(rows).onConflict('event_id').ignore();
      },
    });
    ctx.queryPaths.add({
      pattern: '/example_transfers/<address>',
      description: 'how many currency transfers an address has signed (example-greeter projection)',
      capability: 'read',
      async handler(query) {
        const address = query.parts[0] ?? '';
        if (!isAddress(address)) throw new QueryPathError('address must be 64 lowercase hex characters');
        const row = await bds.knex()(TABLE).where({ sender: address }).count({ n: '*' }).first();
        return { info: 'int', text: String(row?.n ?? 0) };
      },
    });
  },
});
