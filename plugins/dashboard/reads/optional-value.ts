import type { JsonValue } from 'chainhost/chain';
import { nodeError } from '../http/node-errors.js';
import type { ReadContext } from './node-targets.js';

/**
 * An ABCI value that a composite route may do without (a contract view that is missing, a
 * query the node refuses): null instead of an error. A node that cannot be reached or does not
 * answer in time still fails the request (502/504) — an empty page would hide the outage.
 */
export async function optionalAbciValue(r: ReadContext, path: string): Promise<JsonValue> {
  try {
    return (await r.abci.value(path)).value;
  } catch (err) {
    const mapped = nodeError(err, `abci_query ${path}`);
    if (mapped.status === 502 || mapped.status === 504) throw mapped;
    return null;
  }
}
