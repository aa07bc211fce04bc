import assert from 'node:assert/strict';
import { coerceToSignature } from '../../../core/chain/signature-kwargs.js';
import { ApiError } from '../../../core/errors.js';
import type { JsonObject } from '../../../core/chain/canonical-json.js';

const SIGNATURE = new Map<string, string | null>([['fee', 'float'], ['slots', 'int'], ['label', 'str'], ['anything', null]]);
const coerce = (kwargs: JsonObject, field = 'constructor_args') => JSON.parse(JSON.stringify(coerceToSignature(kwargs, SIGNATURE, field)));
const refusal = (field: string, message: RegExp) => (err: unknown) =>
  err instanceof ApiError && err.status === 400 && err.details?.field === field && message.test(err.message);

describe('coerceToSignature: the one coercion of named arguments by a signature (sends and constructors)', () => {
  it('text becomes an exact decimal where float is declared and an integer where int is; other parameters stay as sent', () => {
    assert.deepEqual(coerce({ fee: '2.5', slots: '3', label: '7', anything: '1.5' }), { fee: { __fixed__: '2.5' }, slots: 3, label: '7', anything: '1.5' });
    assert.deepEqual(coerce({ fee: 2, slots: 4 }), { fee: 2, slots: 4 });
  });

  it('refuses what cannot be the declared number, naming the argument under its field', () => {
    assert.throws(() => coerce({ fee: 'two' }), refusal('constructor_args.fee', /^constructor_args\.fee: the function declares fee: float, and "two" is not a number$/));
    assert.throws(() => coerce({ slots: '2.5' }), refusal('constructor_args.slots', /declares slots: int, and "2\.5" is not a whole number/));
    assert.throws(() => coerce({ slots: { __fixed__: '2.5' } }), refusal('constructor_args.slots', /not a whole number/));
    assert.throws(() => coerce({ fee: '0.' + '0'.repeat(30) + '1' }, 'kwargs'), refusal('kwargs.fee', /decimal places/));
  });
});
