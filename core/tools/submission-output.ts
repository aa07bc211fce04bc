import { z } from 'zod';
import type { JsonValue } from '../chain/canonical-json.js';
import type { TransactionSubmission } from '../chain/transaction-submitter.js';
import { decimalOut, intOut, rawOut, txReceiptOut, warningsOut } from './tool-output.js';
import { plainDecimalText } from './decimal-schemas.js';

/**
 * What a submitting tool answers. By default the compact answer: what an agent needs to decide
 * the next step — the hash, whether it executed, the return value or error, the fee in the
 * native currency (and the unused chi, never charged) and the balances the transaction wrote
 * for the accounts involved. `verbose: true` (or CHAIN_INCLUDE_RAW) adds the full detail: the
 * kwargs as signed, the node's CheckTx answer, the dry run and the whole receipt with its events
 * and state writes — several kilobytes per transaction that an agent pays for in context.
 */

/**
 * What every value-moving tool's description says (issue #29): the host's spending policy or the
 * person at the client may refuse the call before anything is signed, and limits count the fee
 * (and approvals) too — so a refusal of 99 against a limit of 100 is no surprise.
 */
export const SPENDING_NOTE = 'A spending policy or the person at the client may refuse it before signing (nothing is sent); limits count the fee and approvals too.';

export const verboseSchema = z
  .boolean()
  .default(false)
  .describe('true: add the full detail (receipt, dry run)');

export const txFeeOut = z.object({
  chi_rate: decimalOut.describe('chi per native token (chi_cost.S:value)'),
  fee: decimalOut.describe('chi_used / chi_rate: what the sender paid, in the native currency'),
  refunded: decimalOut.describe('(chi_supplied − chi_used) / chi_rate: supplied but not charged; fee + refunded is the most it could have cost'),
  refunded_share: decimalOut.describe('(chi_supplied − chi_used) / chi_supplied, 0 to 1'),
}).describe('the fee in the native currency; null before the block or when the chi rate cannot be read');

export const balanceWriteOut = z.object({ token: z.string(), address: z.string(), balance: decimalOut });

const stateWriteOut = z.object({ key: z.string(), value: z.unknown() });

/** TransactionSubmission: compact fields always, the detail only with `verbose`. */
export const transactionSubmissionOut = z.object({
  tx_hash: z.string(),
  success: z.boolean().nullable().describe('executed successfully; null while not in a block (wait: false or not confirmed in time)'),
  finalized: z.boolean().describe('the transaction is in a block (an answer at all means CheckTx accepted it)'),
  contract: z.string(),
  function: z.string(),
  nonce: intOut,
  height: intOut.nullable(),
  chi_estimated: intOut.nullable(),
  chi_supplied: intOut,
  chi_used: intOut.nullable(),
  fee: txFeeOut.nullable(),
  result: z.string().nullable().describe("the contract's return value as the node's repr text"),
  error: z.string().nullable(),
  balances: z.array(balanceWriteOut).describe('balances this transaction wrote for the sender, the recipient (`to`), a transfer_from payer (`main_account`) and both sides of every Transfer it emitted (inner calls included), as they are now'),
  message: z.string(),
  // ---- verbose only ----
  submitted: z.boolean().optional(),
  accepted: z.boolean().optional().describe('CheckTx accepted the transaction'),
  mode: z.literal('checktx').optional(),
  wait_for_tx: z.boolean().optional(),
  chain_id: z.string().optional(),
  sender: z.string().optional(),
  kwargs: z.unknown().optional().describe('verbose: the kwargs as signed (decimals as {"__fixed__": "…"})'),
  response: z.object({ code: z.number().int(), log: z.string(), codespace: z.string(), hash: z.string() }).optional(),
  simulation: z.object({ status: z.number().int(), result: z.string(), chi_used: intOut, state: z.array(stateWriteOut) }).nullable().optional(),
  receipt: txReceiptOut.nullable().optional(),
  warnings: warningsOut,
  raw: rawOut,
});

export type SubmissionAnswer = z.input<typeof transactionSubmissionOut>;

const BALANCE_KEY = /^([A-Za-z_][A-Za-z0-9_]*)\.balances:([^:]+)$/;

/** Balance writes of the accounts a call involves (sender, `to`), in write order, last write per key. */
export function balanceWrites(state: ReadonlyArray<{ key: string; value: JsonValue }>, accounts: ReadonlySet<string>): Array<{ token: string; address: string; balance: string }> {
  const byKey = new Map<string, { token: string; address: string; balance: string }>();
  for (const write of state) {
    const m = BALANCE_KEY.exec(write.key);
    if (!m || !accounts.has(m[2]!)) continue;
    const text = typeof write.value === 'string' ? write.value : typeof write.value === 'number' ? String(write.value) : null;
    const balance = text === null ? null : plainDecimalText(text);
    if (balance === null) continue;
    byKey.delete(write.key);
    byKey.set(write.key, { token: m[1]!, address: m[2]!, balance });
  }
  return [...byKey.values()];
}

/**
 * The accounts whose balances a compact answer shows: the sender, a string `to` kwarg, the payer
 * of a `transfer_from` (`main_account`), and both sides of every `Transfer` event the transaction
 * emitted — so a call whose contract moves tokens in inner calls (an escrow paying a seller)
 * shows the seller's and the contract's balances too. The fee's reward writes name no Transfer
 * and stay out.
 */
export function involvedAccounts(submission: Pick<TransactionSubmission, 'sender' | 'kwargs'>, events: readonly JsonValue[] = []): Set<string> {
  const out = new Set([submission.sender]);
  const kwargs = submission.kwargs;
  if (kwargs && typeof kwargs === 'object' && !Array.isArray(kwargs)) {
    for (const name of ['to', 'main_account'] as const) if (typeof kwargs[name] === 'string') out.add(kwargs[name]);
  }
  for (const event of events) {
    if (!event || typeof event !== 'object' || Array.isArray(event) || event['event'] !== 'Transfer') continue;
    const indexed = event['data_indexed'];
    if (!indexed || typeof indexed !== 'object' || Array.isArray(indexed)) continue;
    for (const side of ['from', 'to'] as const) if (typeof indexed[side] === 'string') out.add(indexed[side]);
  }
  return out;
}

/** A submission as a tool answers it: compact, or everything when `verbose`. */
export function submissionAnswer(submission: TransactionSubmission, verbose: boolean): SubmissionAnswer {
  const receipt = submission.receipt;
  const compact: SubmissionAnswer = {
    tx_hash: submission.tx_hash,
    success: receipt ? receipt.success : null,
    finalized: submission.finalized,
    contract: submission.contract,
    function: submission.function,
    nonce: submission.nonce,
    height: receipt ? receipt.height : null,
    chi_estimated: submission.chi_estimated,
    chi_supplied: submission.chi_supplied,
    chi_used: receipt ? receipt.chi_used : null,
    fee: submission.fee,
    result: receipt ? receipt.result : null,
    error: receipt ? receipt.error : null,
    balances: receipt ? balanceWrites(receipt.state, involvedAccounts(submission, receipt.events)) : [],
    message: submission.message,
  };
  if (!verbose) return compact;
  return {
    ...compact,
    submitted: submission.submitted,
    accepted: submission.accepted,
    mode: submission.mode,
    wait_for_tx: submission.wait_for_tx,
    chain_id: submission.chain_id,
    sender: submission.sender,
    kwargs: submission.kwargs,
    response: submission.response,
    simulation: submission.simulation,
    receipt,
  };
}
