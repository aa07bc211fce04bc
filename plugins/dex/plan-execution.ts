import { ChainDecimal, type KeySource, type SubmitRequest, type TransactionSubmission, type TxReceipt } from 'chainhost/chain';
import { ApiError, submissionAnswer, type SubmissionAnswer } from 'chainhost/plugin';
import { FRESH_PLAN_HINT } from './dex-errors.js';
import type { PlanCall } from './plan-calls.js';

/**
 * Runs a plan's calls in order through the shared TransactionSubmitter: for each call a dry run
 * (unless `simulate` is false; the submitter still dry-runs for the chi estimate), the send with
 * a managed nonce, and the wait for its block. The next call starts only after the previous one
 * executed successfully — an approval must be on chain before the swap's dry run can pass. The
 * first failure stops the run before anything later is sent; what already executed stays
 * executed and is reported in the error's details: `calls_ran`, the compact `transactions` and
 * `total_fee` (what they cost in the native currency), with the plan consumed.
 */

/** Sum of the fees of executed calls, in the native currency; null when any fee is unknown. */
export function totalFee(transactions: readonly TransactionSubmission[]): string | null {
  let sum = ChainDecimal.ZERO;
  for (const t of transactions) {
    if (!t.finalized) continue;
    if (!t.fee) return null;
    sum = sum.plus(ChainDecimal.parse(t.fee.fee));
  }
  return sum.toString();
}

export interface CallSender {
  submit(request: SubmitRequest): Promise<TransactionSubmission>;
}

export interface ExecutionResult {
  simulations: Array<TransactionSubmission['simulation']>;
  transactions: TransactionSubmission[];
  receipts: TxReceipt[];
}

const SNAKX = /SNAKX: [A-Za-z0-9_]+(?: OVERFLOW)?/;

/** The contract's own reason (`SNAKX: K`, `Trade deadline has expired`, …) in a failure text. */
export function failureReason(text: string | null | undefined): string | null {
  if (!text) return null;
  const snakx = SNAKX.exec(text);
  if (snakx) return snakx[0];
  const assertion = /AssertionError\(['"](.+?)['"]\)/.exec(text);
  return assertion ? assertion[1]! : null;
}

export async function executeCalls(
  sender: CallSender,
  key: KeySource,
  calls: readonly PlanCall[],
  options: {
    simulate: boolean; signal?: AbortSignal; waitTimeoutMs?: number; context: Record<string, unknown>;
    /** Told when each call is sent and executed (the tool's ctx.progress). */
    progress?: (message: string) => void;
    /** Appended to failure messages; default: the plan is consumed, create a fresh one. */
    suffix?: string;
    /** Whether failures carry plan_status/hint (plans) or not (helper trades). */
    plan?: boolean;
    /** Asks the person behind the tool call (its ctx.confirm), when the host's send guards want a confirmation. */
    confirm?: SubmitRequest['confirm'];
    /** What the calls are part of, shown to that person (e.g. the plan digest). */
    about?: Record<string, string>;
  },
): Promise<ExecutionResult> {
  const done: ExecutionResult = { simulations: [], transactions: [], receipts: [] };
  const isPlan = options.plan !== false;
  const suffix = options.suffix ?? `the plan is consumed, ${FRESH_PLAN_HINT}`;
  const partial = (index: number, call: PlanCall) => ({
    ...options.context,
    ...(isPlan ? { plan_status: 'consumed', hint: FRESH_PLAN_HINT } : {}),
    failed_call_index: index,
    failed_call: `${call.contract}.${call.function}`,
    completed_calls: done.transactions.length,
    calls_ran: done.transactions.map((t, i) => `${i}: ${t.contract}.${t.function} ${t.tx_hash}`),
    transactions: done.transactions.map((t): SubmissionAnswer => submissionAnswer(t, false)),
    total_fee: totalFee(done.transactions),
    retryable: false,
  });
  for (const [index, call] of calls.entries()) {
    options.progress?.(`call ${index + 1} of ${calls.length} (${call.contract}.${call.function}): dry run, send, wait for its block`);
    let submission: TransactionSubmission;
    try {
      submission = await sender.submit({
        key, contract: call.contract, function: call.function, kwargs: call.kwargs,
        simulate: options.simulate, wait: true, signal: options.signal, waitTimeoutMs: options.waitTimeoutMs,
        confirm: options.confirm, about: { ...options.about, step: `call ${index + 1} of ${calls.length}` },
      });
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      const details = { ...(err.details ?? {}), ...partial(index, call) };
      if (err.code === 'simulation_failed') {
        const result = typeof err.details?.result === 'string' ? err.details.result : null;
        throw new ApiError(422, 'dex_simulation_failed',
          `the dry run of call ${index} (${call.contract}.${call.function}) failed, so it was not sent: ${result ?? err.message}` +
          `${done.transactions.length ? `; ${done.transactions.length} earlier call(s) already executed` : ''}; ${suffix}`,
          { ...details, reason: failureReason(result) });
      }
      throw new ApiError(err.status, err.code, `${err.message} (call ${index}, ${call.contract}.${call.function}; ${suffix})`, details, err.headers);
    }
    done.simulations.push(submission.simulation);
    done.transactions.push(submission);
    const receipt = submission.receipt;
    if (!receipt) {
      throw new ApiError(504, 'dex_transaction_pending',
        `call ${index} (${call.contract}.${call.function}) was accepted as ${submission.tx_hash} but is not in a block yet; later calls were not sent. Check it with get_transaction; ${suffix}`,
        { ...partial(index, call), tx_hash: submission.tx_hash });
    }
    done.receipts.push(receipt);
    if (!receipt.success) {
      throw new ApiError(422, 'dex_transaction_failed',
        `call ${index} (${call.contract}.${call.function}) failed in block ${receipt.height}: ${receipt.error ?? receipt.result ?? 'execution failed'}` +
        `${index > 0 ? `; the ${index} earlier call(s) stay executed` : ''}; ${suffix}`,
        { ...partial(index, call), tx_hash: receipt.tx_hash, reason: failureReason(receipt.error ?? receipt.result) });
    }
    options.progress?.(`call ${index + 1} of ${calls.length} executed in block ${receipt.height}`);
  }
  return done;
}
