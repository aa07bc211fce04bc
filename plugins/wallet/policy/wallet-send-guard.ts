import type { ChainNode, SendAdmission, SendGuard, SendPreview } from 'chainhost/chain';
import { ApiError } from 'chainhost/plugin';
import { spendOfDryRun, StateMovedError, type DryRunSpend } from './dry-run-spend.js';
import type { BoundPolicy, PolicyBook } from './policy-book.js';
import { confirmSend, needsConfirmation, type SendConfirmation } from './send-confirmation.js';
import type { SpendLedger } from './spend-ledger.js';
import { checkSpend, type PolicyDenial } from './spending-policy.js';

/**
 * The wallet's guard on the submitter's pre-sign extension point (core/chain/send-guard.ts):
 *
 * - review (outside the sender's lane): what the dry run spends; the account's policy against
 *   the ledger as it stands (so a send the policy refuses is refused before anyone is asked);
 *   then, when `plugins.wallet.confirm` says so, the person at the client.
 * - admit (inside the lane, right before signing): the policy again against the ledger as it
 *   is now — concurrent sends of one account queue here, so they cannot both fit under what is
 *   left — and the spending is recorded. It is given back only when the node certainly did not
 *   take the transaction; one that fails in its block keeps it (its fee was paid, and counting
 *   the rest errs on the safe side).
 */
const MAX_DRY_RUNS = 4;

export class WalletSendGuard implements SendGuard {
  readonly name = 'wallet-policy';
  readonly #spends = new WeakMap<SendPreview, Promise<DryRunSpend>>();

  constructor(
    private readonly node: ChainNode,
    private readonly book: PolicyBook,
    private readonly ledger: SpendLedger,
    private readonly confirm: SendConfirmation,
  ) {}

  async review(preview: SendPreview): Promise<void> {
    const bound = await this.book.forSender(preview.sender);
    if (!bound && this.confirm.ask === 'never') return;
    const spend = await this.spendOf(preview, bound);
    if (bound) this.check(bound, preview, spend);
    if (needsConfirmation(this.confirm, spend)) await confirmSend(this.confirm, preview, spend, bound?.alias ?? null);
  }

  async admit(preview: SendPreview): Promise<SendAdmission | void> {
    const bound = await this.book.forSender(preview.sender);
    if (!bound) return;
    const spend = await this.spendOf(preview, bound);
    this.check(bound, preview, spend);
    const release = await this.ledger.reserve(preview.sender, spend.spent);
    return { refused: release };
  }

  /** Read once per send (review and admit share it). */
  private spendOf(preview: SendPreview, bound: BoundPolicy | null): Promise<DryRunSpend> {
    let spend = this.#spends.get(preview);
    if (!spend) {
      spend = this.readSpend(preview, bound);
      this.#spends.set(preview, spend);
    }
    return spend;
  }

  /**
   * The dry run and the balances before it must describe one state: when a block commits in
   * between (another send of the account executing, say), the dry run is made again.
   */
  private async readSpend(preview: SendPreview, bound: BoundPolicy | null): Promise<DryRunSpend> {
    let run = preview.simulation;
    let height = preview.simulationHeight;
    for (let attempt = 1; ; attempt++) {
      // Under a policy, spending is known only from a dry run that succeeded.
      if (bound && (!run || !run.success)) throw denied(bound, preview, { rule: 'dryRun', message: `${preview.contract}.${preview.function} has no successful dry run, so what it would spend is unknown` });
      try {
        return await spendOfDryRun(this.node, {
          sender: preview.sender, contract: preview.contract, function: preview.function,
          state: run?.state ?? [], chiSupplied: preview.chiSupplied, chiUsed: run?.chi_used ?? 0n, height,
        }, preview.signal);
      } catch (err) {
        if (!(err instanceof StateMovedError)) throw err;
        if (attempt === MAX_DRY_RUNS) throw new ApiError(503, 'busy', `the chain kept moving while reading what ${preview.contract}.${preview.function} would spend (${MAX_DRY_RUNS} dry runs); nothing was sent, try again`, { retryable: true, sent: false });
        ({ simulation: run, height } = await preview.dryRunAgain());
      }
    }
  }

  private check(bound: BoundPolicy, preview: SendPreview, spend: DryRunSpend): void {
    const denial = checkSpend(bound.policy!, spend, this.ledger.spentToday(preview.sender));
    if (denial) throw denied(bound, preview, denial);
  }
}

function denied(bound: BoundPolicy, preview: SendPreview, denial: PolicyDenial | { rule: 'dryRun'; message: string; remaining?: undefined }): ApiError {
  const left = denial.remaining ? `; remaining: ${Object.entries(denial.remaining).map(([t, v]) => `${v} ${t}`).join(', ')}` : '';
  return new ApiError(403, 'policy_denied', `spending policy of account ${bound.alias} (rule ${denial.rule}): ${denial.message}${left}; nothing was signed or sent`, {
    account: bound.alias,
    address: bound.address,
    rule: denial.rule,
    remaining: denial.remaining ?? null,
    contract: preview.contract,
    function: preview.function,
    sent: false,
  });
}
