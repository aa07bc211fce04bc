import { z } from 'zod';
import { SPENDING_NOTE, decimalOut, decimalSchema, defineTool, submissionAnswer, type ToolDefinition, transactionSubmissionOut, verboseSchema } from 'chainhost/plugin';
import type { DexServices } from '../dex-services.js';
import { helperTrade, type HelperSide } from '../helper-trade.js';
import { tokenSchema } from './dex-schemas.js';

/** `buy_on_dex` / `sell_on_dex`: one-shot trades through `con_dex_helper` (unsafe). */

const helperOut = transactionSubmissionOut.extend({
  approval: z.looseObject({
    token: z.string(),
    spender: z.string(),
    required: z.string(),
    current_allowance: z.string(),
    approval_added: z.boolean(),
    transaction: transactionSubmissionOut.optional(),
  }).describe('the allowance the helper needs on the sell token; when short, an exact approve(required, con_dex_helper) was sent first (its submission under `transaction`)'),
  total_fee: decimalOut.nullable().describe('what the calls sent (approval included) cost in the native currency'),
  trade: z.looseObject({}).describe('what the helper computes from the reserves read before sending'),
  deadline: z.looseObject({}).describe('the absolute deadline sent: {absolute: {"__time__": [...]}, iso}'),
});

const slippage = decimalSchema({ sign: 'nonNegative', description: 'slippage in PERCENT (1 = 1 %), 0-100 (default 1)' })
  .refine((d) => d.lte(100n), 'must be at most 100 (percent)');
const deadlineMin = decimalSchema({ description: 'deadline, minutes from now (≤ 1440, default 1)' })
  .refine((d) => d.lte(1440n), 'must be at most 1440 minutes');

export function helperTools(dex: DexServices): ToolDefinition[] {
  const tool = (side: HelperSide) => defineTool({
    name: `${side}_on_dex`,
    title: side === 'buy' ? 'Buy on the DEX' : 'Sell on the DEX',
    description: side === 'buy'
      ? 'Buys exactly `amount` of buy_token with sell_token (default currency) through con_dex_helper.buy: the helper pulls getAmountIn(amount) × (1 + slippage/100) × 1.0001 of sell_token and requires at least amount × (1 − slippage/100) out. If the sell_token allowance to con_dex_helper is below that input, an exact approve is sent first and reported under `approval`. slippage is in percent. Dry-runs each call, waits for the blocks. ' + SPENDING_NOTE
      : 'Sells exactly `amount` of sell_token for buy_token (default currency) through con_dex_helper.sell, requiring at least getAmountOut(amount) × (1 − slippage/100). If the sell_token allowance to con_dex_helper is below amount, an exact approve is sent first and reported under `approval`. slippage is in percent. Dry-runs each call, waits for the blocks. ' + SPENDING_NOTE,
    capability: 'unsafe',
    timeoutMs: 2 * dex.waitTimeoutMs + 30_000,
    input: z.object({
      ...dex.signers.fields('private_key', 'the trading account'),
      ...(side === 'buy'
        ? { buy_token: tokenSchema('token bought'), sell_token: tokenSchema('token paid').default('currency') }
        : { sell_token: tokenSchema('token sold'), buy_token: tokenSchema('token received').default('currency') }),
      amount: decimalSchema({ description: side === 'buy' ? 'exact output wanted, > 0' : 'exact input sold, > 0' }),
      slippage: slippage.prefault('1'),
      deadline_min: deadlineMin.prefault('1'),
      verbose: verboseSchema,
    }),
    output: helperOut,
    refusedArguments: dex.signers.refused('private_key'),
    hints: { idempotentHint: false, openWorldHint: true },
    run: async (args, ctx) => {
      const a = args as typeof args & { buy_token: string; sell_token: string };
      const r = await helperTrade(dex, {
        side, privateKey: (await dex.signers.resolve(a, 'private_key')).wallet, buyToken: a.buy_token, sellToken: a.sell_token, amount: a.amount,
        slippagePercent: a.slippage, deadlineMinutes: a.deadline_min, signal: ctx.signal, progress: (m) => ctx.progress(m),
        confirm: (request) => ctx.confirm(request),
      });
      const verbose = a.verbose || dex.includeRaw;
      const approval = { ...r.approval, ...(r.approvalSubmission ? { transaction: submissionAnswer(r.approvalSubmission, verbose) } : {}) };
      return {
        ...submissionAnswer(r.submission, verbose),
        approval: approval as z.input<typeof helperOut>['approval'], trade: r.trade, deadline: r.deadline, total_fee: r.totalFee,
      };
    },
  });
  return [tool('buy'), tool('sell')];
}
