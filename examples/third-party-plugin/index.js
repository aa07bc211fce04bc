// A third-party plugin is a plain value with the shape of chainhost's definePlugin(): it needs
// no import from chainhost itself. Load it by path from a config file:
//   { "plugins": { "./examples/third-party-plugin": { "greeting": "hi" } } }
import Router from '@koa/router';
import { z } from 'zod';

export default {
  name: 'example-greeter',
  description: 'Example third-party plugin: an example_greet read tool and GET /example/greeting on the tool server.',
  config: z.strictObject({ greeting: z.string().min(1).max(40).default('hello') }),

  init(ctx) {
    const greet = (name) => `${ctx.options.greeting}, ${name}`;

    ctx.tools.add({
      name: 'example_greet',
      title: 'Greet someone',
      description: 'Returns a greeting for the given name. Pure; touches no chain state.',
      capability: 'read',
      hints: { idempotentHint: true, openWorldHint: false },
      input: z.object({ name: z.string().min(1).max(100).describe('who to greet') }),
      output: z.object({ message: z.string() }),
      async run({ name }) {
        return { message: greet(name) };
      },
    });

    const router = new Router();
    router.get('/example/greeting', (http) => {
      const name = typeof http.query.name === 'string' && http.query.name ? http.query.name.slice(0, 100) : 'world';
      http.body = { message: greet(name) };
    });
    ctx.routes.add({ server: 'tools', id: 'example-greeter', capability: 'read', router });
  },
};
