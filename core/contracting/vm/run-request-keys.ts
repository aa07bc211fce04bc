import type { JsonLike } from './fixture-codec.js';

/**
 * The members each part of a `runVm` request may have (README "Contract VM"). A member a part
 * does not have is refused by name rather than ignored: a request written from a guess (a flat
 * `{"currency.balances:con_escrow": 7}` as the initial state) would otherwise run against
 * empty state and answer as if it had been applied.
 */
export const RUN_REQUEST_MEMBERS = {
  request: ['modules', 'call', 'context', 'observe', 'meter'],
  module: ['module_name', 'ir', 'owner', 'initial_state'],
  initial_state: ['variables', 'hashes', 'foreign_variables', 'foreign_hashes'],
  variable: ['binding', 'value'],
  hash: ['binding', 'entries'],
  entry: ['key', 'value'],
  foreign_variable: ['contract', 'name', 'value'],
  foreign_hash: ['contract', 'name', 'entries'],
  call: ['module', 'function', 'args', 'kwargs'],
  context: ['this', 'caller', 'signer', 'owner', 'submission_name', 'entry', 'now', 'block_num', 'block_hash', 'chain_id'],
  meter: ['chi_budget', 'transaction_size_bytes'],
  observe_module: ['variables', 'hashes'],
  observe_variable: ['binding'],
  observe_hash: ['binding', 'entries'],
  observe_entry: ['key'],
} as const satisfies Record<string, readonly string[]>;

export type RunRequestPart = keyof typeof RUN_REQUEST_MEMBERS;

/** Where a member that looks like a storage key (`contract.name:key`) belongs instead. */
const STATE_HINT =
  'state is seeded per module as initial_state: {variables: [{binding, value}], hashes: [{binding, entries: [{key, value}]}], ' +
  'foreign_variables: [{contract, name, value}], foreign_hashes: [{contract, name, entries: [{key, value}]}]}';

/** The first member of `object` that `part` does not have, as `[field, message]`, or null. */
export function unknownMember(object: { [k: string]: JsonLike }, part: RunRequestPart, at: string): [string, string] | null {
  const allowed: readonly string[] = RUN_REQUEST_MEMBERS[part];
  for (const key of Object.keys(object)) {
    if (allowed.includes(key)) continue;
    const field = at === 'request' ? key : `${at}.${key}`;
    const hint = /[.:]/.test(key) ? `; ${STATE_HINT}` : '';
    return [field, `is not a member of ${at === 'request' ? 'the request' : at} (expected ${allowed.join(', ')})${hint}`];
  }
  return null;
}
