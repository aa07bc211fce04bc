import { z } from 'zod';
import type { SendPreview } from 'chainhost/chain';
import { ApiError } from 'chainhost/plugin';
import type { DryRunSpend } from './dry-run-spend.js';

/**
 * `plugins.wallet.confirm`: which sends a person at the MCP client must accept first.
 *
 * - `ask`: `"never"` (default), `"always"`, or `{ "above": { "<token contract>": "<decimal>" } }`
 *   — a send whose dry run takes more than that amount of a listed token out of the sender (the
 *   chi fee counts in `currency`) needs confirmation; tokens not listed never do.
 * - `fallback`: when confirmation is needed but nobody can be asked (a client without MCP
 *   elicitation, the HTTP tool API): `"refuse"` (default) or `"allow"` (send, within the policy).
 * - `timeoutSeconds`: how long to wait for the answer (default 120); no answer refuses.
 *
 * Accept sends; decline, cancel or the timeout refuse with `confirmation_declined` /
 * `confirmation_timeout` (403) and nothing is sent.
 */
const decimalText = z.string().regex(/^\d+(\.\d+)?$/, 'must be a non-negative decimal string such as "100" or "2.5"');
const contractName = z.string().regex(/^[a-z_][a-z0-9_]*$/, 'must be a contract name such as "currency" or "con_token"');

export const sendConfirmationSchema = z.strictObject({
  /** Which sends need a person's yes: "never", "always", or `{"above": {"<token contract>": "<decimal>"}}` (more than that amount of a listed token leaves the sender, fee counted in currency). */
  ask: z.union([z.enum(['never', 'always']), z.strictObject({
    /** Token contract → the amount above which a send needs confirmation. */
    above: z.record(contractName, decimalText),
  })]).default('never'),
  /** When confirmation is needed but the client offers no MCP elicitation (or over the HTTP tool API): "refuse" the send, or "allow" it within the policy. */
  fallback: z.enum(['refuse', 'allow']).default('refuse'),
  /** How long to wait for the person's answer; no answer refuses (`confirmation_timeout`). The tool's own timeout does not run meanwhile. */
  timeoutSeconds: z.number().int().min(1).max(3600).default(120),
});

export type SendConfirmation = z.output<typeof sendConfirmationSchema>;

/** Whether this send needs a person's yes; `spend` only matters for `above`. */
export function needsConfirmation(config: SendConfirmation, spend: DryRunSpend): boolean {
  if (config.ask === 'never') return false;
  if (config.ask === 'always') return true;
  return Object.entries(config.ask.above).some(([token, threshold]) => spend.spent.get(token)?.gt(threshold) ?? false);
}

/** The plain text a person reads before accepting. */
export function confirmationMessage(preview: SendPreview, spend: DryRunSpend, alias: string | null): string {
  const amounts = [...spend.spent].filter(([, v]) => v.gt(0n)).map(([token, v]) => `${v.toString()} ${token}`);
  const lines = [
    'Sign and send this transaction?',
    `From: ${preview.sender}${alias ? ` (account ${alias})` : ''}`,
    `Call: ${preview.contract}.${preview.function}`,
    `To: ${spend.credited.size ? [...spend.credited].join(', ') : 'no other address receives anything'}`,
    ...spend.approvals.map((a) => `Approval: ${a.spender} may take ${a.amount.toString()} ${a.token} more from the account (counted as spending)`),
    `Amounts leaving the account: ${amounts.length ? amounts.join(', ') : 'none'}${spend.fee ? ' (fee included)' : ''}`,
    `Fee: at most ${spend.fee ? `${spend.fee.toString()} currency` : 'unknown currency'} (${preview.chiSupplied} chi supplied)`,
    ...Object.entries(preview.about).map(([k, v]) => `${k.replace(/_/g, ' ')}: ${v}`),
    'Accept to send it; decline to refuse it (nothing is sent).',
  ];
  return lines.join('\n');
}

/** Asks and turns anything but an accept into a refusal (or, when nobody can be asked, into the fallback). */
export async function confirmSend(config: SendConfirmation, preview: SendPreview, spend: DryRunSpend, alias: string | null): Promise<void> {
  const call = `${preview.contract}.${preview.function}`;
  const outcome = await preview.confirm({ message: confirmationMessage(preview, spend, alias), timeoutMs: config.timeoutSeconds * 1000 });
  const details = { outcome, sender: preview.sender, contract: preview.contract, function: preview.function, sent: false };
  switch (outcome) {
    case 'accepted':
      return;
    case 'unavailable':
      if (config.fallback === 'allow') return;
      throw new ApiError(403, 'confirmation_unavailable',
        `${call} from ${preview.sender} needs a person's confirmation (plugins.wallet.confirm), but this client cannot ask anyone (it offers no MCP elicitation, or the call came over the HTTP tool API); ` +
        'nothing was sent. To send it, a person makes the call from an MCP client that supports elicitation (form mode) and accepts it there; an agent cannot lift this', details);
    case 'timeout':
      throw new ApiError(403, 'confirmation_timeout', `nobody answered the confirmation of ${call} from ${preview.sender} within ${config.timeoutSeconds} s; nothing was sent`, details);
    default:
      throw new ApiError(403, 'confirmation_declined', `the person at the client ${outcome} ${call} from ${preview.sender}; nothing was sent`, details);
  }
}
