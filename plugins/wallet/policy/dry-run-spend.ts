import { abciDecimal, assertAbciOk, ChainDecimal, type ChainNode, type JsonValue, QueryPath } from 'chainhost/chain';
import type { SpendPreview } from './spending-policy.js';

/**
 * What a transaction would take out of an account, read from its dry run rather than from its
 * arguments, with no per-contract or per-function knowledge:
 *
 * - every `<token>.balances:<account>` write that lowers the account's balance is spending in
 *   that token, and every `balances:<address>` write that raises another address's balance
 *   credits that address;
 * - every allowance the account grants that rises — `<token>.approvals:<account>:<spender>`
 *   (XSC001, new generation) or `<token>.balances:<account>:<spender>` (legacy) — is spending of
 *   the rise in that token *to the spender*, who is credited like a recipient: once granted, the
 *   spender can take it without the account signing anything again;
 * - an allowance of the account that falls in the same call (a `transfer_from` consuming it, as
 *   a DEX router does after its approve step) was counted when it was granted, so that much of
 *   the account's balance drop in that token is not counted again.
 *
 * The fee (chi supplied ÷ the chi rate, at most what the node can charge) is spending in
 * `currency`. The dry run's own fee write (`currency.balances:<sender>` lowered by its
 * chi_used ÷ rate, simulate.md §3) is taken out of the sender's currency change first, so the
 * fee is not counted twice.
 */
const BALANCE_KEY = /^([a-z_][a-z0-9_]*)\.balances:([0-9a-f]{64})$/;
/** An allowance `owner` grants `spender`: new-generation `approvals`, legacy `balances` with two key parts (contracts.md §6). */
const ALLOWANCE_KEY = /^([a-z_][a-z0-9_]*)\.(?:approvals|balances):([0-9a-f]{64}):([^:]+)$/;
/** Chi per native token (contracts.md §5.4). */
const CHI_RATE_KEY = 'chi_cost.S:value';

export interface DryRunWrites {
  sender: string;
  contract: string;
  function: string;
  state: ReadonlyArray<{ key: string; value: JsonValue }>;
  chiSupplied: bigint;
  /** The dry run's chi_used, whose fee its state already holds. */
  chiUsed: bigint;
  /** The committed height the dry run ran at: every read must answer at it (else StateMovedError). */
  height?: string | null;
}

/**
 * A block committed between the dry run and the reads of the balances it changed, so the two no
 * longer describe one state (what leaves the account would be misjudged): dry-run again.
 */
export class StateMovedError extends Error {
  constructor(readonly dryRunHeight: string, readonly readHeight: string) {
    super(`the chain moved from height ${dryRunHeight} to ${readHeight} while the dry run's balances were read`);
  }
}

function amountOf(value: JsonValue): ChainDecimal | null {
  if (typeof value === 'bigint' || (typeof value === 'number' && Number.isFinite(value))) return ChainDecimal.from(String(value));
  if (typeof value === 'string' && ChainDecimal.isDecimalText(value)) return ChainDecimal.parse(value);
  if (value && typeof value === 'object' && !Array.isArray(value) && typeof value['__fixed__'] === 'string') return ChainDecimal.parse(value['__fixed__']);
  return null;
}

async function currentAmount(node: ChainNode, key: string, height: string | null | undefined, signal?: AbortSignal): Promise<ChainDecimal> {
  const path = QueryPath.get(key);
  const answer = assertAbciOk(await node.query(path, { signal }), path);
  // Height 0 means the node does not say (upstream nodes always answer 0, abci-query.md §1.1): nothing to compare.
  if (height && height !== '0' && answer.height !== '0' && answer.height !== height) throw new StateMovedError(height, answer.height);
  return abciDecimal(answer) ?? ChainDecimal.ZERO;
}

/** An allowance the account would grant: `amount` is the rise, counted as spending to `spender`. */
export interface GrantedAllowance {
  token: string;
  spender: string;
  amount: ChainDecimal;
}

/** The spending, plus the fee alone (already inside `spent.currency`) and the allowances granted, for showing a person; fee null when the chi rate is unknown. */
export interface DryRunSpend extends SpendPreview {
  fee: ChainDecimal | null;
  approvals: GrantedAllowance[];
}

function add(map: Map<string, ChainDecimal>, token: string, amount: ChainDecimal): void {
  map.set(token, (map.get(token) ?? ChainDecimal.ZERO).plus(amount));
}

export async function spendOfDryRun(node: ChainNode, run: DryRunWrites, signal?: AbortSignal): Promise<DryRunSpend> {
  const spent = new Map<string, ChainDecimal>();
  const credited = new Set<string>();
  const rate = await currentAmount(node, CHI_RATE_KEY, run.height, signal);
  const dryRunFee = rate.gt(0n) ? ChainDecimal.from(run.chiUsed).div(rate) : ChainDecimal.ZERO;
  // The last write of a key is its value after the call.
  const finalWrites = new Map(run.state.map((w) => [w.key, w.value]));
  const dropped = new Map<string, ChainDecimal>();
  /** Per token: how much of the account's allowances the call consumes (counted when granted). */
  const consumed = new Map<string, ChainDecimal>();
  const approvals: GrantedAllowance[] = [];
  for (const [key, value] of finalWrites) {
    const balance = BALANCE_KEY.exec(key);
    const allowance = balance ? null : ALLOWANCE_KEY.exec(key);
    if (allowance && allowance[2] === run.sender) {
      const written = amountOf(value);
      if (written === null) continue;
      const [, token, , spender] = allowance as unknown as [string, string, string, string];
      const before = await currentAmount(node, key, run.height, signal);
      if (written.gt(before)) {
        const amount = written.minus(before);
        add(spent, token, amount);
        approvals.push({ token, spender, amount });
        if (spender !== run.sender) credited.add(spender);
      } else if (written.lt(before)) {
        add(consumed, token, before.minus(written));
      }
      continue;
    }
    const written = balance ? amountOf(value) : null;
    if (!balance || written === null) continue;
    const before = await currentAmount(node, key, run.height, signal);
    const [, token, owner] = balance;
    const after = token === 'currency' && owner === run.sender ? written.plus(dryRunFee) : written;
    if (owner === run.sender && after.lt(before)) dropped.set(token!, before.minus(after));
    else if (owner !== run.sender && after.gt(before)) credited.add(owner!);
  }
  for (const [token, drop] of dropped) {
    const rest = drop.minus(consumed.get(token) ?? ChainDecimal.ZERO);
    if (rest.gt(0n)) add(spent, token, rest);
  }
  const fee = rate.gt(0n) ? ChainDecimal.from(run.chiSupplied).div(rate) : null;
  if (fee) spent.set('currency', (spent.get('currency') ?? ChainDecimal.ZERO).plus(fee));
  return { contract: run.contract, function: run.function, spent, credited, fee, approvals };
}
