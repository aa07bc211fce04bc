import { z } from 'zod';
import type { EnvBinding } from 'chainhost/plugin';

const url = z.string().refine((v) => { try { const u = new URL(v); return u.protocol === 'http:' || u.protocol === 'https:'; } catch { return false; } }, 'must be an http(s) URL');

/** `plugins.query`. */
export const queryConfigSchema = z.strictObject({
  /**
   * GraphQL URL of the indexed query layer (http or https; credentials in the URL are sent as
   * Basic auth). Token balances and token symbols are asked there when no BDS query path
   * answers, before scanning current state; an endpoint that fails is left alone for 30 s.
   */
  graphqlUrl: url.default('http://127.0.0.1:5000/graphql'),
});

/** The spec's GraphQL endpoint variable (part 2). */
export const queryEnvBindings: readonly EnvBinding[] = [
  { variable: 'CHAIN_GRAPHQL', path: ['graphqlUrl'], type: 'string' },
];

export type QueryOptions = z.output<typeof queryConfigSchema>;
