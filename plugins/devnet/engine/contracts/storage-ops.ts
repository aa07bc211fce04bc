import type { ChainValue } from 'chainhost/chain';
import type { ContractContext, Hash } from '../contract.js';
import { add, sub } from '../num.js';

/** `hash[parts] += delta` (or `-=`): a read and a write, as the VM meters a mutate statement. */
export function adjust(ctx: ContractContext, hash: Hash, parts: ChainValue[], delta: ChainValue, negate = false): void {
  const current = hash.get(ctx, ...parts);
  hash.set(ctx, parts, negate ? sub(current, delta) : add(current, delta));
}
