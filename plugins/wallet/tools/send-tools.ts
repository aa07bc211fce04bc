import { z } from 'zod';
import type { JsonObject, TransactionSubmission, TransactionSubmitter } from 'chainhost/chain';
import { SPENDING_NOTE, addressSchema, contractNameSchema, decimalSchema, defineTool, functionNameSchema, kwargsSchema, type SignerArguments, submissionAnswer, type ToolDefinition, transactionSubmissionOut, verboseSchema, withExtras } from 'chainhost/plugin';

export interface SendToolDeps {
  submitter(): TransactionSubmitter;
  /** `account` or `private_key`: the shared signer arguments. */
  signers: SignerArguments;
  includeRaw: boolean;
  /** How long `wait` may take; the tool's own timeout is this plus a margin. */
  waitTimeoutMs: number;
}

const waitSchema = z
  .boolean()
  .default(true)
  .describe('wait for the block (default); false: return once CheckTx accepted it');

const FLOW =
  'Dry-runs the call first (nothing is sent if it would fail); chi = max(ceil(estimate × 1.1), estimate + 10) by default; manages the nonce; waits for the block unless wait is false.';

export function sendTools(deps: SendToolDeps): ToolDefinition[] {
  const timeoutMs = deps.waitTimeoutMs + 30_000;
  // Compact unless the caller asks for detail; CHAIN_INCLUDE_RAW keeps the full answer too.
  const finish = (submission: TransactionSubmission, verbose: boolean) =>
    withExtras(submissionAnswer(submission, verbose || deps.includeRaw), { includeRaw: deps.includeRaw, raw: { broadcast_tx_sync: submission.response } });
  return [
    defineTool({
      name: 'send_transaction',
      title: 'Send transaction',
      description: `Signs and sends contract.function(**kwargs) from a keystore account (account) or a private key. ${FLOW} Returns the hash, success, return value, fee in currency and the balances it wrote (a transfer_from's payer too); verbose adds events and state writes. ${SPENDING_NOTE}`,
      capability: 'unsafe',
      timeoutMs,
      input: z.object({
        ...deps.signers.fields('private_key', 'the sending account'),
        contract: contractNameSchema,
        function: functionNameSchema,
        kwargs: kwargsSchema,
        wait: waitSchema,
        chi_supplied: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional().describe('explicit chi limit; default: the dry-run estimate with the margin. A limit below the dry run\'s chi is refused before signing (chi_too_low): it would fail with Out of chi. and pay for all of it'),
        verbose: verboseSchema,
      }),
      output: transactionSubmissionOut,
      refusedArguments: deps.signers.refused('private_key'),
      hints: { idempotentHint: false, openWorldHint: true },
      run: async (args, ctx) =>
        finish(
          await deps.submitter().submit({
            key: (await deps.signers.resolve(args, 'private_key')).wallet,
            contract: args.contract,
            function: args.function,
            kwargs: args.kwargs,
            wait: args.wait,
            chiSupplied: args.chi_supplied,
            signal: ctx.signal,
            confirm: (request) => ctx.confirm(request),
          }),
          args.verbose,
        ),
    }),
    defineTool({
      name: 'send_tokens',
      title: 'Send tokens',
      description: `Transfers an exact amount of a token (default currency) to an address: <token_contract>.transfer(amount, to). ${FLOW} ${SPENDING_NOTE}`,
      capability: 'unsafe',
      timeoutMs,
      input: z.object({
        ...deps.signers.fields('private_key', 'the sending account'),
        to_address: addressSchema,
        token_contract: contractNameSchema.default('currency'),
        amount: decimalSchema({ description: 'amount to send, > 0, at most 30 decimal places' }),
        wait: waitSchema,
        verbose: verboseSchema,
      }),
      output: transactionSubmissionOut,
      refusedArguments: deps.signers.refused('private_key'),
      hints: { idempotentHint: false, openWorldHint: true },
      run: async (args, ctx) => {
        const kwargs = Object.create(null) as JsonObject;
        kwargs['amount'] = { __fixed__: args.amount.toString() }; // plain text, as written (not "5E+6")
        kwargs['to'] = args.to_address;
        return finish(
          await deps.submitter().submit({
            key: (await deps.signers.resolve(args, 'private_key')).wallet,
            contract: args.token_contract,
            function: 'transfer',
            kwargs,
            wait: args.wait,
            signal: ctx.signal,
            confirm: (request) => ctx.confirm(request),
          }),
          args.verbose,
        );
      },
    }),
  ];
}
