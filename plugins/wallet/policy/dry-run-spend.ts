import { abciDecimal, assertAbciOk, ChainDecimal, type ChainNode, type JsonValue, QueryPath } from 'chainhost/chain';
import type { SpendPreview } from './spending-policy.js';

/**
 * What a transaction would take out of an account, read from its dry run rather than from its
 * arguments: every `<contract>.balances:<account>` write that lowers the account's balance is
 * spending in that token contract, and every `balances:<address>` write that raises another
 * address's balance credits that address. This covers transfers, DEX swaps, liquidity and any
 * contract call alike, with no per-function knowledge. The fee (chi supplied ÷ the chi rate, at
 * most what the node can charge) is spending in `currency`. The dry run's own fee write
 * (`currency.balances:<sender>` lowered by its chi_used ÷ rate, simulate.md §3) is taken out of
 * the sender's currency change first, so the fee is not counted twice.
 */
const BALANCE_KEY = /^([a-z_][a-z0-9_]*)\.balances:([0-9a-f]{64})$/;
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

/** The spending, plus the fee alone (already inside `spent.currency`) for showing a person; null when the chi rate is unknown. */
export interface DryRunSpend extends SpendPreview {
  fee: ChainDecimal | null;
}

export async function spendOfDryRun(node: ChainNode, run: DryRunWrites, signal?: AbortSignal): Promise<DryRunSpend> {
  const spent = new Map<string, ChainDecimal>();
  const credited = new Set<string>();
  const rate = await currentAmount(node, CHI_RATE_KEY, run.height, signal);
  const dryRunFee = rate.gt(0n) ? ChainDecimal.from(run.chiUsed).div(rate) : ChainDecimal.ZERO;
  // The last write of a key is its value after the call.
  const finalWrites = new Map(run.state.map((w) => [w.key, w.value]));
  for (const [key, value] of finalWrites) {
    const match = BALANCE_KEY.exec(key);
    const written = match ? amountOf(value) : null;
    if (!match || written === null) continue;
    const before = await currentAmount(node, key, run.height, signal);
    const [, token, owner] = match;
    const after = token === 'currency' && owner === run.sender ? written.plus(dryRunFee) : written;
    if (owner === run.sender && after.lt(before)) spent.set(token!, before.minus(after));
    else if (owner !== run.sender && after.gt(before)) credited.add(owner!);
  }
  const fee = rate.gt(0n) ? ChainDecimal.from(run.chiSupplied).div(rate) : null;
  if (fee) spent.set('currency', (spent.get('currency') ?? ChainDecimal.ZERO).plus(fee));
  return { contract: run.contract, function: run.function, spent, credited, fee };
}
