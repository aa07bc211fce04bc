import { z } from 'zod';
import { parseJsonExact, type JsonObject } from '../chain/canonical-json.js';
import { KwargsError, kwargsFromUser } from '../chain/user-kwargs.js';

/**
 * Zod schemas for the chain arguments every tool shares (wallet, query, crypto, simulate, dex,
 * dashboard), and the JSON-safe output helpers; tools import them all from here. Input rules are
 * the chain's own (transactions.md §1.2): identifiers for contract and function names, 64 hex
 * for addresses and keys, exact decimals, kwargs through the value codec. Messages name what was
 * expected; a private key's message never contains the key, and other messages quote only short
 * inputs. By concept: identifier-schemas.ts (keys, addresses, hashes, names, state keys),
 * decimal-schemas.ts (exact decimals), tool-output.ts (outputs), node-call.ts (node failures as
 * tool errors); call arguments and paging are here.
 */

export {
  MAX_NAME_LENGTH, addressSchema, contractNameSchema, functionNameSchema, privateKeySchema, stateKeyPrefixSchema, stateKeySchema, txHashSchema,
} from './identifier-schemas.js';
export { MAX_DECIMAL_PLACES, decimalPlaces, decimalSchema, plainDecimalText, type DecimalSchemaOptions } from './decimal-schemas.js';
export {
  decimalOut, intOut, intValue, rawOut, toolJson, txReceiptOut, warningsOut, withExtras,
} from './tool-output.js';
export { balanceWrites, SPENDING_NOTE, submissionAnswer, transactionSubmissionOut, txFeeOut, verboseSchema, type SubmissionAnswer } from './submission-output.js';
export { nodeApiError, nodeCall } from './node-call.js';

// ---- kwargs ----------------------------------------------------------------------------------

/**
 * Contract call arguments: a JSON object (or a string holding one) → wire kwargs through the
 * value codec: fractional numbers become exact `{"__fixed__"}` decimals, integers beyond 2^53
 * must be `{"__big_int__":"…"}`, wrappers (`__fixed__`, `__time__`, …) are checked. Errors name
 * the argument and where inside it the problem is.
 */
export const kwargsSchema = z
  .union([z.record(z.string(), z.unknown()), z.string().max(1_000_000)])
  .optional()
  .transform((value, ctx): JsonObject => {
    let input: unknown = value ?? {};
    if (typeof input === 'string') {
      try {
        input = input.trim() === '' ? {} : parseJsonExact(input);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: `kwargs text is not valid JSON: ${(err as Error).message}` });
        return z.NEVER;
      }
    }
    try {
      return kwargsFromUser(input);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: err instanceof KwargsError ? err.message : `kwargs: ${(err as Error).message}` });
      return z.NEVER;
    }
  })
  .describe('arguments, e.g. {"amount": "1.5", "to": "<address>"}; datetimes as {"__time__":[Y,M,D,h,m,s,µs]}');

// ---- paging ----------------------------------------------------------------------------------

/** A bounded page size. */
export function limitSchema(max: number, defaultValue: number) {
  return z.number().int().min(1).max(max).default(defaultValue).describe('page size');
}

export const offsetSchema = z.number().int().min(0).max(1_000_000).default(0).describe('rows to skip');
