import { chainRecord } from 'chainhost/chain';
import type { DeployRequest } from '../genesis.js';
import { SHIELDED_NOTE_SOURCE, ZERO_ROOT } from './shielded-note.source.js';

export { ZERO_ROOT };

/** A field element as the contract writes it: `0x` + 64 lowercase hex digits. */
export const FIELD_ZERO_HEX = '0x' + '00'.repeat(32);

/** The deploy request for a shielded-note token instance. */
export function shieldedNoteDeployment(o: { name: string; tokenName?: string; tokenSymbol?: string; operator?: string }): DeployRequest {
  const args = chainRecord([
    ['token_name', o.tokenName ?? 'Shielded Note Token'],
    ['token_symbol', o.tokenSymbol ?? 'SNOTE'],
  ]);
  if (o.operator !== undefined) args['operator_address'] = o.operator;
  return { name: o.name, code: SHIELDED_NOTE_SOURCE, owner: null, constructorArgs: args };
}
