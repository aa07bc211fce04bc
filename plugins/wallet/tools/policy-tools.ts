import { z } from 'zod';
import { ALIAS_PATTERN, ApiError, defineTool, type ToolDefinition } from 'chainhost/plugin';
import type { PolicyBook } from '../policy/policy-book.js';
import type { SendConfirmation } from '../policy/send-confirmation.js';
import { DAY_MS, type SpendLedger } from '../policy/spend-ledger.js';
import { remainingToday, type AccountPolicy } from '../policy/spending-policy.js';

export interface PolicyToolDeps {
  /** Whether the host's keystore is unlocked (accounts can sign). */
  unlocked(): boolean;
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

/** One line a model reads: the limits and lists of a policy, or that there is none. */
function policySummary(policy: AccountPolicy | null): string {
  if (!policy) return 'no spending policy: not limited';
  const limits = (rule: Record<string, string> | undefined, per: string) => Object.entries(rule ?? {}).map(([t, v]) => `≤ ${v} ${t} ${per}`);
  const list = (name: string, items: readonly string[] | undefined) => (items ? [`${name}: ${items.join(', ') || 'none'}`] : []);
  const parts = [
    ...limits(policy.maxPerTransaction, 'per transaction'), ...limits(policy.maxPer24h, 'per 24 h'),
    ...list('contracts', policy.allowedContracts), ...list('functions', policy.allowedFunctions), ...list('recipients', policy.allowedRecipients),
  ];
  return parts.length ? parts.join('; ') : 'a policy without rules: not limited';
}

const accountsOut = z.object({
  keystore: z.enum(['unlocked', 'locked']).describe('locked: the host got no passphrase, accounts cannot sign'),
  accounts: z.array(z.object({
    alias: z.string(),
    address: z.string(),
    policy: z.string().describe('the limits and lists in one line'),
    remaining_24h: amounts.describe('token contract → what is left of each daily limit now'),
  })),
});

/** `list_accounts` and `get_account_policy`: which accounts an agent may name and what each may still spend (read; policies live in the config only). */
export function policyTools(deps: PolicyToolDeps): ToolDefinition[] {
  return [
    defineTool({
      name: 'list_accounts',
      title: 'List keystore accounts',
      description: 'The keystore accounts tools can sign with (account: alias or address): alias, address, spending policy in one line and what is left of each daily limit. Never a key.',
      capability: 'read',
      input: z.object({}),
      output: accountsOut,
      hints: { openWorldHint: false },
      run: async () => ({
        keystore: deps.unlocked() ? 'unlocked' as const : 'locked' as const,
        accounts: (await deps.book.all()).map((bound) => ({
          alias: bound.alias,
          address: bound.address,
          policy: policySummary(bound.policy),
          remaining_24h: bound.policy ? remainingToday(bound.policy, deps.ledger.spentToday(bound.address)) : {},
        })),
      }),
    }),
    defineTool({
      name: 'get_account_policy',
      title: 'Get account spending policy',
      description:
        'The spending policy of a keystore account: per-transaction and rolling 24 h limits per token (fee and approvals count), allowed contracts, functions and recipients, ' +
        'spent and left today, and when a person must confirm. Set in the host config only; no tool can change it.',
      capability: 'read',
      input: z.object({
        account: z.string().regex(ALIAS_PATTERN, 'must be a keystore account name or a 64-hex address').describe('keystore account: its alias or its address'),
      }),
      output: accountPolicyOut,
      hints: { openWorldHint: false },
      run: async ({ account }) => {
        const bound = await deps.book.account(account);
        if (!bound) throw new ApiError(404, 'unknown_account', `no keystore account is named or has the address ${account}; list_accounts shows the accounts`, { field: 'account' });
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
