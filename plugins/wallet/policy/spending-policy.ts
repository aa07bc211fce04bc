import { z } from 'zod';
import { ChainDecimal } from 'chainhost/chain';

/**
 * A keystore account's spending policy, from the config only (`plugins.wallet.policies.<alias>`),
 * so no tool call can lift it. Limits are per token contract, in exact decimals; the chi fee
 * counts against `currency` at its currency cost. A missing rule allows everything it would
 * govern; an empty list allows nothing.
 */
const decimalText = z.string().regex(/^\d+(\.\d+)?$/, 'must be a non-negative decimal string such as "100" or "2.5"');
const contractName = z.string().regex(/^[a-z_][a-z0-9_]*$/, 'must be a contract name such as "currency" or "con_token"');

export const accountPolicySchema = z.strictObject({
  /** Most one transaction may take out of the account, per token contract. */
  maxPerTransaction: z.record(contractName, decimalText).optional(),
  /** Most the account may spend in any rolling 24 hours, per token contract. */
  maxPer24h: z.record(contractName, decimalText).optional(),
  /** Contracts the account may call. */
  allowedContracts: z.array(contractName).optional(),
  /** `contract.function` pairs the account may call. */
  allowedFunctions: z.array(z.string().regex(/^[a-z_][a-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*$/, 'must be "contract.function"')).optional(),
  /**
   * Addresses that may receive value from the account (its own address always may), and the
   * spenders it may grant an allowance to — an address, or a contract name such as `con_dex`
   * for the DEX router's approvals.
   */
  allowedRecipients: z.array(z.string().regex(/^([0-9a-f]{64}|con_[a-zA-Z0-9_]+)$/, 'must be a 64-hex address or a contract name (a spender such as con_dex)')).optional(),
});

export type AccountPolicy = z.output<typeof accountPolicySchema>;

/** What one transaction would do, from its dry run: see dry-run-spend.ts. */
export interface SpendPreview {
  contract: string;
  function: string;
  /** Token contract → amount leaving the account (fee included under `currency`). */
  spent: ReadonlyMap<string, ChainDecimal>;
  /** Addresses other than the account whose balance would grow, and spenders of allowances it would grant. */
  credited: ReadonlySet<string>;
}

export interface PolicyDenial {
  rule: 'allowedContracts' | 'allowedFunctions' | 'allowedRecipients' | 'maxPerTransaction' | 'maxPer24h';
  message: string;
  /** What is left under the rule that refused (limits only), per token contract. */
  remaining?: Record<string, string>;
}

/**
 * The first rule `preview` breaks, or null. `spentToday` is what the account already spent in
 * the last 24 hours, per token contract.
 */
export function checkSpend(policy: AccountPolicy, preview: SpendPreview, spentToday: ReadonlyMap<string, ChainDecimal>): PolicyDenial | null {
  const call = `${preview.contract}.${preview.function}`;
  if (policy.allowedContracts && !policy.allowedContracts.includes(preview.contract)) {
    return { rule: 'allowedContracts', message: `contract ${preview.contract} is not among the account's allowed contracts (${policy.allowedContracts.join(', ') || 'none'})` };
  }
  if (policy.allowedFunctions && !policy.allowedFunctions.includes(call)) {
    return { rule: 'allowedFunctions', message: `${call} is not among the account's allowed functions (${policy.allowedFunctions.join(', ') || 'none'})` };
  }
  if (policy.allowedRecipients) {
    const stranger = [...preview.credited].find((a) => !policy.allowedRecipients!.includes(a));
    if (stranger) return { rule: 'allowedRecipients', message: `${call} would pay ${stranger} or let it take the account's tokens, and it is not an allowed recipient` };
  }
  for (const [token, amount] of preview.spent) {
    const cap = policy.maxPerTransaction?.[token];
    if (cap !== undefined && amount.gt(cap)) {
      return { rule: 'maxPerTransaction', message: `${call} would spend ${amount.toString()} of ${token}; the account may spend at most ${cap} per transaction`, remaining: { [token]: ChainDecimal.from(cap).toString() } };
    }
  }
  for (const [token, amount] of preview.spent) {
    const cap = policy.maxPer24h?.[token];
    if (cap === undefined) continue;
    const left = ChainDecimal.from(cap).minus(spentToday.get(token) ?? ChainDecimal.ZERO);
    if (amount.gt(left)) {
      const shown = left.isNegative() ? ChainDecimal.ZERO : left;
      return { rule: 'maxPer24h', message: `${call} would spend ${amount.toString()} of ${token}; ${shown.toString()} of the account's ${cap} per 24 hours is left`, remaining: { [token]: shown.toString() } };
    }
  }
  return null;
}

/** What is left of each daily limit, for `get_account_policy`. */
export function remainingToday(policy: AccountPolicy, spentToday: ReadonlyMap<string, ChainDecimal>): Record<string, string> {
  const left: Record<string, string> = {};
  for (const [token, cap] of Object.entries(policy.maxPer24h ?? {})) {
    const rest = ChainDecimal.from(cap).minus(spentToday.get(token) ?? ChainDecimal.ZERO);
    left[token] = (rest.isNegative() ? ChainDecimal.ZERO : rest).toString();
  }
  return left;
}
