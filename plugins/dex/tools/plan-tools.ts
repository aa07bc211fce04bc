import { z } from 'zod';
import { SPENDING_NOTE, addressSchema, ApiError, decimalSchema, defineTool, submissionAnswer, type ToolDefinition } from 'chainhost/plugin';
import { FRESH_PLAN_HINT } from '../dex-errors.js';
import type { DexServices } from '../dex-services.js';
import { buildAddLiquidityPlan, buildRemoveLiquidityPlan } from '../liquidity-plan.js';
import { assertDeadlineMargin, checkPlanForSubmit } from '../plan-check.js';
import { SUBMIT_KINDS, type SubmitKind } from '../plan-calls.js';
import { executeCalls, totalFee } from '../plan-execution.js';
import type { IssuedPlan } from '../plan-registry.js';
import { buildSwapPlan, type BuiltPlan } from '../swap-plan.js';
import {
  deadlineMinutesSchema, issuedPlanOut, maxHopsSchema, pathSchema, planIdSchema, simulateSchema, slippageBpsSchema, submitOut, tokenSchema,
} from './dex-schemas.js';

/**
 * The plan-first DEX flow (spec parts 2-4, mcp.md §5): `dex_plan_*` (read) build an immutable
 * audit plan; `dex_submit_*` (unsafe) take only `private_key`, `plan_id` and `simulate` — the
 * calls, amounts and recipient come from the stored plan and cannot be supplied.
 */

const FLOW = 'Show the plan to the user and get their confirmation, then call the matching dex_submit_* with plan_id and the signer; once, before expires_at.';

function issued(plan: IssuedPlan): z.input<typeof issuedPlanOut> {
  return {
    plan_id: plan.planId,
    plan_digest: plan.digest,
    plan_status: 'active',
    issued_at: plan.issuedAt,
    expires_at: plan.expiresAt,
    operation: String(plan.plan.operation),
    plan: plan.plan as Record<string, unknown>,
    warnings: Array.isArray(plan.plan.warnings) ? (plan.plan.warnings as string[]) : [],
  };
}

/**
 * Stores the plan. A CHAIN_ID that differs from the node's network is a warning here, as in the
 * read tools: the plan is bound to CHAIN_ID, so its submit would be refused.
 */
async function issue(dex: DexServices, built: BuiltPlan, signal: AbortSignal): Promise<z.input<typeof issuedPlanOut>> {
  const chainWarnings = dex.guard ? await dex.guard.warnings(signal) : [];
  try {
    const out = issued(dex.registry.issue(built.body, built.deadline.ms));
    if (chainWarnings.length) out.warnings = [...chainWarnings.map((w) => `${w}; this plan (bound to ${dex.chainId}) would be refused at submit`), ...out.warnings];
    return out;
  } catch (err) {
    if (err instanceof RangeError) throw ApiError.badRequest(`cannot issue the plan: ${err.message}`, { field: 'deadline_minutes' });
    throw err;
  }
}

const SUBMIT_DESCRIPTIONS: Record<SubmitKind, string> = {
  swap: 'Submits a dex_plan_swap plan',
  add_liquidity: 'Submits a dex_plan_add_liquidity plan',
  remove_liquidity: 'Submits a dex_plan_remove_liquidity plan',
};

export function planTools(dex: DexServices): ToolDefinition[] {
  const submitTool = (kind: SubmitKind) => defineTool({
    name: `dex_submit_${kind}`,
    title: `Submit a DEX ${kind.replace('_', ' ')} plan`,
    description: `${SUBMIT_DESCRIPTIONS[kind]} (${SUBMIT_KINDS[kind].operations.join(', ')}): the calls, amounts and recipient are the plan's. The first attempt consumes the plan, before any check; it stays consumed whatever follows (plan_expiring, a failed call): then create a fresh plan. Each call is dry-run (unless simulate is false), sent and waited for; answers per call hash, success, result, fee, balances, plus calls_ran and total_fee. ${SPENDING_NOTE}`,
    capability: 'unsafe',
    timeoutMs: 4 * dex.waitTimeoutMs + 30_000,
    // Exactly these three arguments (spec part 4): the full detail comes with CHAIN_INCLUDE_RAW only.
    input: z.object({ ...dex.signers.fields('private_key', 'the account the plan was made for'), plan_id: planIdSchema, simulate: simulateSchema }),
    output: submitOut,
    refusedArguments: dex.signers.refused('private_key'),
    hints: { idempotentHint: false, openWorldHint: true },
    run: async (args, ctx) => {
      // Malformed arguments are no attempt: neither or both of account and private_key is a 400 that consumes nothing.
      if ((args.account === undefined) === (args.private_key === undefined)) await dex.signers.resolve(args, 'private_key');
      // 1. Consume, first (spec §3): before the wallet, the deadline or any other check. Synchronous,
      // so of concurrent submits exactly one gets past this line; every later attempt fails.
      const plan = dex.registry.claim(args.plan_id);
      const onConsumed = (err: unknown, context: Record<string, unknown>): never => {
        if (!(err instanceof ApiError)) throw err;
        if (err.details?.plan_status === 'consumed') throw err;
        const details = { ...(err.details ?? {}), ...context, plan_status: 'consumed', hint: FRESH_PLAN_HINT, retryable: false };
        throw new ApiError(err.status, err.code, `${err.message}; the plan is consumed, ${FRESH_PLAN_HINT}`, details, err.headers);
      };
      let signer: Awaited<ReturnType<typeof dex.signers.resolve>>;
      try {
        signer = await dex.signers.resolve(args, 'private_key');
        // 2. Too close to its deadline: refused before anything is sent (the plan stays consumed).
        if (dex.blockTime) {
          const blockMs = await dex.blockTime.blockTimeMs(ctx.signal);
          assertDeadlineMargin(plan.planId, plan.plan, { nowMs: dex.now(), blockMs, safetyBlocks: dex.safetyBlocks });
        }
      } catch (err) {
        onConsumed(err, { plan_id: plan.planId, plan_digest: plan.digest });
      }
      // 3. Checks on the consumed plan.
      const checked = checkPlanForSubmit(plan.planId, plan.plan, { kind, chainId: dex.chainId, signer: signer!.wallet.address, signerLabel: signer!.label, nowMs: dex.now() });
      const context = { plan_id: plan.planId, plan_digest: plan.digest, operation: checked.operation };
      if (dex.guard) {
        try {
          await dex.guard.assertMatches(ctx.signal);
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          const details = { ...(err.details ?? {}), ...context, plan_status: 'consumed', hint: FRESH_PLAN_HINT };
          if (err.code === 'chain_id_mismatch') throw new ApiError(409, 'plan_chain_mismatch', `${err.message}; the plan is consumed, ${FRESH_PLAN_HINT}`, details);
          onConsumed(err, context);
        }
      }
      // 4. Dry run, send and wait, call by call.
      const result = await executeCalls(dex.sender(), signer!.wallet, checked.calls, {
        simulate: args.simulate, signal: ctx.signal, waitTimeoutMs: dex.waitTimeoutMs, context, progress: (m) => ctx.progress(m),
        confirm: (request) => ctx.confirm(request), about: { operation: checked.operation, plan_id: plan.planId, plan_digest: plan.digest },
      });
      const verbose = dex.includeRaw;
      const last = result.transactions[result.transactions.length - 1]!;
      return {
        plan_id: plan.planId,
        plan_digest: plan.digest,
        plan_status: 'consumed' as const,
        operation: checked.operation,
        simulated: args.simulate,
        success: result.receipts.every((r) => r.success),
        calls_ran: result.transactions.length,
        total_fee: totalFee(result.transactions),
        transactions: result.transactions.map((t) => submissionAnswer(t, verbose)),
        final_transaction: { tx_hash: last.tx_hash, function: last.function, success: last.receipt?.success ?? null, result: last.receipt?.result ?? null },
        ...(verbose ? {
          issued_at: plan.issuedAt,
          expires_at: plan.expiresAt,
          plan_version: Number(plan.plan.plan_version),
          simulations: result.simulations,
          receipts: result.receipts,
        } : {}),
      };
    },
  });

  return [
    defineTool({
      name: 'dex_plan_swap',
      title: 'Plan a DEX swap',
      description: `Builds an immutable swap plan from a fresh quote: the exact router call, an exact approval of token_in to con_dex only if short (never unlimited), minimum output = quote × (1 − slippage_bps), deadline, price impact, warnings. mode exact_out: input = ceil(quoted input × (1 + slippage_bps)), minimum output = amount. Nothing is signed. ${FLOW}`,
      capability: 'read',
      input: z.object({
        token_in: tokenSchema('token sold'),
        token_out: tokenSchema('token bought'),
        amount: decimalSchema({ description: 'exact_in: the input; exact_out: the wanted output. > 0, exact decimal string or number' }),
        account: addressSchema.describe('the account that will sign (its fee tier, balance and allowance are read)'),
        recipient: addressSchema.describe('who receives the output (explicit, may equal account)'),
        mode: z.enum(['exact_in', 'exact_out']).default('exact_in'),
        path: pathSchema,
        slippage_bps: slippageBpsSchema,
        deadline_minutes: deadlineMinutesSchema(5),
        fee_on_transfer: z.enum(['auto', 'plain', 'supporting']).default('auto')
          .describe('auto: the supporting router variant when a route token is flagged fee-on-transfer; plain: refuse flagged tokens; supporting: always the supporting variant'),
        max_hops: maxHopsSchema,
      }),
      output: issuedPlanOut,
      run: async (args, ctx) => {
        const built = await dex.reader.read((s) => buildSwapPlan(dex.reader, s, {
          tokenIn: args.token_in, tokenOut: args.token_out, amount: args.amount, mode: args.mode, account: args.account, recipient: args.recipient,
          path: args.path, slippageBps: args.slippage_bps, deadlineMinutes: args.deadline_minutes, feeOnTransfer: args.fee_on_transfer,
          maxHops: args.path ? args.path.length : args.max_hops, chainId: dex.chainId, nowMs: dex.now(),
        }, dex.market), ctx.signal);
        return issue(dex, built, ctx.signal);
      },
    }),
    submitTool('swap'),
    defineTool({
      name: 'dex_plan_add_liquidity',
      title: 'Plan adding DEX liquidity',
      description: `Builds an immutable addLiquidity plan: both desired amounts, minimums = optimal-ratio amounts × (1 − slippage_bps), expected LP, exact approvals to con_dex where short, a warning when it would create the pair. ${FLOW}`,
      capability: 'read',
      input: z.object({
        token_a: tokenSchema('first token'),
        token_b: tokenSchema('second token'),
        amount_a_desired: decimalSchema({ description: 'most of token_a to deposit, > 0' }),
        amount_b_desired: decimalSchema({ description: 'most of token_b to deposit, > 0' }),
        account: addressSchema.describe('the account that will sign'),
        recipient: addressSchema.describe('who receives the LP tokens'),
        slippage_bps: slippageBpsSchema,
        deadline_minutes: deadlineMinutesSchema(10),
      }),
      output: issuedPlanOut,
      run: async (args, ctx) => {
        const built = await dex.reader.read((s) => buildAddLiquidityPlan(dex.reader, s, {
          tokenA: args.token_a, tokenB: args.token_b, amountADesired: args.amount_a_desired, amountBDesired: args.amount_b_desired,
          account: args.account, recipient: args.recipient, slippageBps: args.slippage_bps, deadlineMinutes: args.deadline_minutes,
          chainId: dex.chainId, nowMs: dex.now(),
        }), ctx.signal);
        return issue(dex, built, ctx.signal);
      },
    }),
    submitTool('add_liquidity'),
    defineTool({
      name: 'dex_plan_remove_liquidity',
      title: 'Plan removing DEX liquidity',
      description: `Builds an immutable removeLiquidity plan: burning \`liquidity\` LP tokens of the pair, expected payouts, minimums = expected × (1 − slippage_bps), an exact LP approval to con_dex where short. ${FLOW}`,
      capability: 'read',
      input: z.object({
        token_a: tokenSchema('first token'),
        token_b: tokenSchema('second token'),
        liquidity: decimalSchema({ description: 'LP tokens to burn, > 0' }),
        account: addressSchema.describe('the account that will sign (holds the LP tokens)'),
        recipient: addressSchema.describe('who receives both tokens'),
        slippage_bps: slippageBpsSchema,
        deadline_minutes: deadlineMinutesSchema(10),
      }),
      output: issuedPlanOut,
      run: async (args, ctx) => {
        const built = await dex.reader.read((s) => buildRemoveLiquidityPlan(dex.reader, s, {
          tokenA: args.token_a, tokenB: args.token_b, liquidity: args.liquidity, account: args.account, recipient: args.recipient,
          slippageBps: args.slippage_bps, deadlineMinutes: args.deadline_minutes, chainId: dex.chainId, nowMs: dex.now(),
        }), ctx.signal);
        return issue(dex, built, ctx.signal);
      },
    }),
    submitTool('remove_liquidity'),
  ];
}
