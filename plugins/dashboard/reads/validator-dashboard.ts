import type { JsonValue } from 'chainhost/chain';
import { readNode } from '../http/node-errors.js';
import { optionalAbciValue } from './optional-value.js';
import type { ReadContext } from './node-targets.js';

export interface ValidatorDashboard {
  local_account: string | null;
  policy: JsonValue;
  active_validators: JsonValue[];
  pending_candidates: JsonValue[];
  open_votes: JsonValue[];
  local_validator: JsonValue;
  local_pending_unbonds: JsonValue[];
}

/**
 * `/api/validator_dashboard` (dashboard.md §4.1): the node's own validator account (the hex of
 * its Ed25519 validator key, which is also its chain address) and the `validators` contract's
 * views, read in parallel. Every key is always present; a missing view is null or `[]`.
 */
export async function validatorDashboard(r: ReadContext): Promise<ValidatorDashboard> {
  const status = await readNode('status', () => r.node.status(r.call));
  const key = status.validator_info?.pub_key?.value;
  const localAccount = key ? Buffer.from(key, 'base64').toString('hex') : null;
  const [policy, active, candidates, votes, local, unbonds] = await Promise.all([
    optionalAbciValue(r, '/validators_policy'),
    optionalAbciValue(r, '/validators_active'),
    optionalAbciValue(r, '/validators_candidates'),
    optionalAbciValue(r, '/validators_open_votes/limit=25/offset=0'),
    localAccount ? optionalAbciValue(r, `/validators_validator/${localAccount}`) : Promise.resolve(null),
    localAccount ? optionalAbciValue(r, `/validators_pending_unbonds/${localAccount}`) : Promise.resolve(null),
  ]);
  return {
    local_account: localAccount,
    policy: isObject(policy) ? policy : null,
    active_validators: asList(active),
    pending_candidates: asList(candidates),
    open_votes: asList(votes),
    local_validator: isObject(local) ? local : null,
    local_pending_unbonds: asList(unbonds),
  };
}

function asList(value: JsonValue): JsonValue[] {
  return Array.isArray(value) ? value : [];
}

function isObject(value: JsonValue): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
