import { z } from 'zod';
import { ALIAS_PATTERN, ApiError, defineTool, type ToolDefinition } from 'chainhost/plugin';
import type { PolicyBook } from '../policy/policy-book.js';
import type { SendConfirmation } from '../policy/send-confirmation.js';
import { DAY_MS, type SpendLedger } from '../policy/spend-ledger.js';
import { remainingToday } from '../policy/spending-policy.js';

export interface PolicyToolDeps {
  book: PolicyBook;
  ledger: SpendLedger;
  confirm: SendConfirmation;
}

const amounts = z.record(z.string(), z.string());

const accountPolicyOut = z.object({
  account: z.string().describe('the keystore alias'),
  address: z.string(),
  has_policy: z.boolean().describe('false: no plugins.wallet.policies entry, the account may send anything'),
  max_per_transaction: amounts.describe('token contract → most one transaction may spend (chi fee counted in currency)'),
  max_per_24h: amounts.describe('token contract → most the account may spend in any rolling 24 hours'),
  allowed_contracts: z.array(z.string()).nullable().describe('null: any contract'),
  allowed_functions: z.array(z.string()).nullable().describe('null: any function'),
  allowed_recipients: z.array(z.string()).nullable().describe('null: any recipient'),
  window_hours: z.number().int(),
  spent_24h: amounts.describe('token contract → spent in the last 24 hours (every token, limited or not)'),
  remaining_24h: amounts.describe('token contract → what is left of each daily limit now'),
  confirm: z.object({
    ask: z.string().describe('never, always or above'),
    above: amounts.nullable(),
    fallback: z.string(),
    timeout_seconds: z.number().int(),
  }).describe('plugins.wallet.confirm: which sends a person must accept (MCP elicitation)'),
});

/** `get_account_policy`: what a keystore account may still spend (read; the policy itself lives in the config only). */
export function policyTools(deps: PolicyToolDeps): ToolDefinition[] {
  return [
    defineTool({
      name: 'get_account_policy',
      title: 'Get account spending policy',
      description:
        'Shows the spending policy of a keystore account (chain-keys): per-transaction and rolling 24 h limits per token contract, allowed contracts, functions and recipients, ' +
        'what it spent in the last 24 hours and what is left of each daily limit, and when a person must confirm a send. The policy is set in the host config only; no tool can change it.',
      capability: 'read',
      input: z.object({
        account: z.string().regex(ALIAS_PATTERN, 'must be a keystore account name or a 64-hex address').describe('keystore account: its alias or its address'),
      }),
      output: accountPolicyOut,
      hints: { openWorldHint: false },
      run: async ({ account }) => {
        const bound = await deps.book.account(account);
        if (!bound) throw new ApiError(404, 'unknown_account', `no keystore account is named or has the address ${account}; chain-keys list shows the accounts`, { field: 'account' });
        const policy = bound.policy ?? {};
        const spent = deps.ledger.spentToday(bound.address);
        const ask = deps.confirm.ask;
        return {
          account: bound.alias,
          address: bound.address,
          has_policy: bound.policy !== null,
          max_per_transaction: { ...(policy.maxPerTransaction ?? {}) },
          max_per_24h: { ...(policy.maxPer24h ?? {}) },
          allowed_contracts: policy.allowedContracts ?? null,
          allowed_functions: policy.allowedFunctions ?? null,
          allowed_recipients: policy.allowedRecipients ?? null,
          window_hours: DAY_MS / 3_600_000,
          spent_24h: Object.fromEntries([...spent].map(([token, amount]) => [token, amount.toString()])),
          remaining_24h: remainingToday(policy, spent),
          confirm: {
            ask: typeof ask === 'string' ? ask : 'above',
            above: typeof ask === 'string' ? null : { ...ask.above },
            fallback: deps.confirm.fallback,
            timeout_seconds: deps.confirm.timeoutSeconds,
          },
        };
      },
    }),
  ];
}
