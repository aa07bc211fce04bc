import { type QueryPathDefinition, QueryPathError } from 'chainhost/plugin';
import { accounts, hashPrefixMatches, tokenMatches } from '../reads/lookup-reads.js';
import { bdsPath, type BdsQueryContext } from './path-context.js';
import { limitParam, offsetParam, partParam } from './query-params.js';

const MAX_SEARCH = 50;

/** The explorer's lookups: search by partial hash or token symbol/name, and every address that holds or received value. */
export function lookupPaths(ctx: BdsQueryContext): QueryPathDefinition[] {
  return [
    bdsPath('/search/<text>/limit=<n>', 'transactions, blocks and addresses whose hash starts with the text (4 to 64 hex digits), and tokens whose symbol or name is or starts with it; at most limit (≤ 50) of each', async (q) => {
      const text = partParam(q, 0, 'text').trim();
      const limit = Math.min(limitParam(q), MAX_SEARCH);
      if (text.length > 128) throw new QueryPathError(`text must be at most 128 characters, got ${text.length}`);
      const hex = /^(0x)?[0-9a-fA-F]{4,64}$/.test(text) ? text.replace(/^0x/i, '') : null;
      const [hashes, tokens] = await Promise.all([
        hex ? hashPrefixMatches(ctx.knex(), hex, limit) : Promise.resolve([]),
        tokenMatches(ctx.knex(), text, limit),
      ]);
      return { text, items: [...hashes, ...tokens], limit };
    }),
    bdsPath('/accounts/limit=<n>/offset=<n>', 'every address that holds or received value (a balance of the native or an XSC001 token) or sent a transaction, most recently active first', async (q) => {
      const limit = limitParam(q);
      const offset = offsetParam(q);
      return { available: true, ...(await accounts(ctx.knex(), limit, offset)), limit, offset };
    }),
  ];
}
