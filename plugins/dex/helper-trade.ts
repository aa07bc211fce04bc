import { ChainDatetime, ChainDecimal, type JsonObject, type KeySource, type SubmitRequest, type TransactionSubmission, Wallet } from 'chainhost/chain';
import { ApiError } from 'chainhost/plugin';
import { AmmError, helperBuy, helperSell } from './amm.js';
import { marketError, pairNotFound } from './dex-errors.js';
import type { DexServices } from './dex-services.js';
import { approveCall, fixed } from './plan-calls.js';
import { executeCalls, totalFee, type ExecutionResult } from './plan-execution.js';

/**
 * `buy_on_dex` / `sell_on_dex` through `con_dex_helper` (dex.md §5). The helper pulls the sell
 * token with `transfer_from`, so the user must have approved the *helper* — the anchor neither
 * checked nor added that approval (mcp.md §8.3). Here the exact amount the helper will pull is
 * computed from current reserves with the helper's own maths (buy: getAmountIn × (1 + s/100) ×
 * 1.0001; sell: `amount`), and an `approve(that amount, con_dex_helper)` is sent first when the
 * allowance is short, and reported. `amount` and `slippage` (percent, 0-100) are exact decimals;
 * `deadline_min` becomes an absolute `{"__time__": […]}` deadline.
 */

export type HelperSide = 'buy' | 'sell';

export interface HelperTradeRequest {
  side: HelperSide;
  /** The signer: a keystore account's wallet or a private key. */
  privateKey: KeySource;
  buyToken: string;
  sellToken: string;
  amount: ChainDecimal;
  slippagePercent: ChainDecimal;
  deadlineMinutes: ChainDecimal;
  signal?: AbortSignal;
  progress?: (message: string) => void;
  /** The tool call's ctx.confirm, for the host's send guards. */
  confirm?: SubmitRequest['confirm'];
}

export interface HelperTradeResult {
  submission: TransactionSubmission;
  /** The exact approval sent first, when the allowance was short. */
  approvalSubmission: TransactionSubmission | null;
  /** Fees of every call sent, in the native currency (null when unknown). */
  totalFee: string | null;
  approval: JsonObject;
  trade: JsonObject;
  deadline: JsonObject;
}

const MICROS_PER_MINUTE = ChainDecimal.from(60_000_000n);

/** now + minutes as the VM's datetime payload (exact to the microsecond, truncated). */
export function deadlinePayload(nowMs: number, minutes: ChainDecimal): { absolute: JsonObject; iso: string; ms: number } {
  const micros = BigInt(nowMs) * 1000n + minutes.times(MICROS_PER_MINUTE).toBigInt();
  const dt = ChainDatetime.fromEpochMicros(micros);
  return { absolute: { __time__: dt.parts() }, iso: dt.toDate().toISOString(), ms: Number(micros / 1000n) };
}

export async function helperTrade(dex: DexServices, req: HelperTradeRequest): Promise<HelperTradeResult> {
  if (req.buyToken === req.sellToken) throw ApiError.badRequest('buy_token and sell_token must differ', { field: 'buy_token' });
  const account = Wallet.from(req.privateKey).address;
  const helper = dex.reader.contracts.helper;
  const quoted = await dex.reader.read(async (s) => {
    const pairId = await dex.reader.pairIdFor(s, req.buyToken, req.sellToken);
    const pair = pairId === null ? null : await dex.reader.pair(s, pairId);
    if (!pair) throw pairNotFound({ buy_token: req.buyToken, sell_token: req.sellToken });
    const [reserveSell, reserveBuy] = pair.token0 === req.sellToken ? [pair.reserve0, pair.reserve1] : [pair.reserve1, pair.reserve0];
    const [feeBps, allowance, balance] = await Promise.all([
      dex.reader.feeBps(s, account),
      dex.reader.allowance(s, req.sellToken, account, helper),
      dex.reader.balance(s, req.sellToken, account),
    ]);
    return { pairId: pair.pairId, reserveSell, reserveBuy, feeBps, allowance, balance, height: s.height };
  }, req.signal);

  let pull: ChainDecimal;
  let trade: JsonObject;
  try {
    if (req.side === 'buy') {
      const q = helperBuy(req.amount, quoted.reserveSell, quoted.reserveBuy, quoted.feeBps, req.slippagePercent);
      pull = q.input;
      trade = { side: 'buy', amount_out: req.amount.toString(), input_pulled: q.input.toString(), minimum_output: q.minimumOutput.toString() };
    } else {
      const q = helperSell(req.amount, quoted.reserveSell, quoted.reserveBuy, quoted.feeBps, req.slippagePercent);
      pull = req.amount;
      trade = { side: 'sell', amount_in: req.amount.toString(), expected_output: q.expected.toString(), minimum_output: q.minimumOutput.toString() };
    }
  } catch (err) {
    if (err instanceof AmmError) throw marketError(err.reason, `the helper would refuse this ${req.side}`);
    throw err;
  }
  if (quoted.balance.lt(pull)) {
    throw new ApiError(422, 'insufficient_balance', `the account holds ${quoted.balance} ${req.sellToken} but the ${req.side} needs ${pull}; nothing was sent`, {
      token: req.sellToken, balance: quoted.balance.toString(), needed: pull.toString(),
    });
  }
  Object.assign(trade, {
    pair_id: quoted.pairId, buy_token: req.buyToken, sell_token: req.sellToken, reserve_sell: quoted.reserveSell.toString(),
    reserve_buy: quoted.reserveBuy.toString(), fee_bps: quoted.feeBps, slippage_percent: req.slippagePercent.toString(), height: quoted.height,
    note: req.side === 'buy' ? 'the helper pulls getAmountIn × (1 + slippage/100) × 1.0001 and swaps all of it; output above amount is kept' : 'the helper swaps exactly amount',
  });

  const deadline = deadlinePayload(dex.now(), req.deadlineMinutes);
  const approve = quoted.allowance.lt(pull);
  const calls = [
    ...(approve ? [approveCall(req.sellToken, pull, helper)] : []),
    {
      contract: helper,
      function: req.side,
      kwargs: {
        buy_token: req.buyToken,
        sell_token: req.sellToken,
        amount: fixed(req.amount),
        slippage: fixed(req.slippagePercent),
        deadline: deadline.absolute,
      } as JsonObject,
    },
  ];
  const approval: JsonObject = {
    token: req.sellToken, spender: helper, required: pull.toString(), current_allowance: quoted.allowance.toString(), approval_added: approve,
  };
  const result: ExecutionResult = await executeCalls(dex.sender(), req.privateKey, calls, {
    simulate: true, signal: req.signal, waitTimeoutMs: dex.waitTimeoutMs, context: { operation: `${req.side}_on_dex`, approval }, progress: req.progress,
    confirm: req.confirm, about: { operation: `${req.side}_on_dex` },
    plan: false, suffix: approve ? 'the approval sent before it (if it executed) stays in place' : 'nothing else was sent',
  });
  return {
    submission: result.transactions[result.transactions.length - 1]!,
    approvalSubmission: approve ? result.transactions[0]! : null,
    totalFee: totalFee(result.transactions),
    approval, trade, deadline: { absolute: deadline.absolute, iso: deadline.iso },
  };
}
