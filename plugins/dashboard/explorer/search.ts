import { ApiError } from 'chainhost/plugin';
import type { ReadContext } from '../reads/node-targets.js';
import { href, seg } from './format.js';

/**
 * Where the search box goes (dashboard.md §7): digits → block; 64 hex → the transaction if the
 * node knows it, else the address; a dotted key → its state value; an identifier → contract.
 */
export async function searchTarget(r: ReadContext, query: string): Promise<string> {
  const q = query.trim();
  const rpc = r.peer;
  if (q === '') return href('/explorer', rpc);
  if (/^\d{1,16}$/.test(q) && Number(q) > 0) return href(`/explorer/block/${Number(q)}`, rpc);
  if (/^(0x)?[0-9a-fA-F]{64}$/.test(q)) {
    const hash = q.replace(/^0x/i, '').toUpperCase();
    const known = await r.node.tx(hash, r.call).then(() => true, () => false);
    return known ? href(`/explorer/tx/${hash}`, rpc) : href(`/explorer/address/${seg(q.replace(/^0x/i, '').toLowerCase())}`, rpc);
  }
  if (/^[A-Za-z_][A-Za-z0-9_]*\.[^/\s]+$/.test(q)) return href('/explorer/state', rpc, { key: q });
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(q)) return href(`/explorer/contract/${seg(q)}`, rpc);
  if (/^[A-Za-z0-9_.:-]{1,256}$/.test(q)) return href(`/explorer/address/${seg(q)}`, rpc);
  throw ApiError.badRequest(`cannot tell what ${JSON.stringify(q.slice(0, 80))} is: search for a block height, a transaction hash, an address, a contract name or a state key`, { parameter: 'q' });
}
