import { abciDecimal, assertAbciOk, ChainDecimal, type ChainNode, type JsonValue, QueryPath } from 'chainhost/chain';
import type { SpendPreview } from './spending-policy.js';

/**
 * What a transaction would take out of an account, read from its dry run rather than from its
 * arguments: every `<contract>.balances:<account>` write that lowers the account's balance is
 * spending in that token contract, and every `balances:<address>` write that raises another
 * address's balance credits that address. This covers transfers, DEX swaps, liquidity and any
 * contract call alike, with no per-function knowledge. The fee (chi supplied ÷ the chi rate, at
 * most what the node can charge) is spending in `currency`.
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
}

function amountOf(value: JsonValue): ChainDecimal | null {
  if (typeof value === 'bigint' || (typeof value === 'number' && Number.isFinite(value))) return ChainDecimal.from(String(value));
  if (typeof value === 'string' && ChainDecimal.isDecimalText(value)) return ChainDecimal.parse(value);
  if (value && typeof value === 'object' && !Array.isArray(value) && typeof value['__fixed__'] === 'string') return ChainDecimal.parse(value['__fixed__']);
  return null;
}

async function currentAmount(node: ChainNode, key: string, signal?: AbortSignal): Promise<ChainDecimal> {
  const path = QueryPath.get(key);
  return abciDecimal(assertAbciOk(await node.query(path, { signal }), path)) ?? ChainDecimal.ZERO;
}

export async function spendOfDryRun(node: ChainNode, run: DryRunWrites, signal?: AbortSignal): Promise<SpendPreview> {
  const spent = new Map<string, ChainDecimal>();
  const credited = new Set<string>();
  // The last write of a key is its value after the call.
  const finalWrites = new Map(run.state.map((w) => [w.key, w.value]));
  for (const [key, value] of finalWrites) {
    const match = BALANCE_KEY.exec(key);
    const after = match ? amountOf(value) : null;
    if (!match || after === null) continue;
    const before = await currentAmount(node, key, signal);
    const [, token, owner] = match;
    if (owner === run.sender && after.lt(before)) spent.set(token!, before.minus(after));
    else if (owner !== run.sender && after.gt(before)) credited.add(owner!);
  }
  const rate = await currentAmount(node, CHI_RATE_KEY, signal);
  if (rate.gt(0n)) spent.set('currency', (spent.get('currency') ?? ChainDecimal.ZERO).plus(ChainDecimal.from(run.chiSupplied).div(rate)));
  return { contract: run.contract, function: run.function, spent, credited };
}
