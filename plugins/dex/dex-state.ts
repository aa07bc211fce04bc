import { abciJson, ChainDecimal, type ChainNode, compactJson, QueryPath } from 'chainhost/chain';
import type { FeeBps, FeeState, Precision } from './amm.js';
import { mapLimit, readConsistently, type StateSnapshot } from './state-snapshot.js';

/**
 * Everything the DEX tools read from chain state, through `abci_query` only (`/get/<key>`,
 * `/contract_methods/<name>`, `/simulate_tx/<hex>`), so the plugin works unchanged against a
 * real node. Storage keys are the contracts' (dex.md §3.1, §4): `con_pairs.pairs:<id>:<field>`,
 * `con_pairs.toks_to_pair:<token0>:<token1>`, `con_dex.zero_fee_signers:<account>`, … Pair
 * tokens and LP tokens never change once a pair exists, so they are cached; reserves never are.
 */

export interface DexContracts {
  pairs: string;
  router: string;
  helper: string;
}

export const DEFAULT_DEX_CONTRACTS: DexContracts = { pairs: 'con_pairs', router: 'con_dex', helper: 'con_dex_helper' };

export interface PairTokens {
  token0: string;
  token1: string;
  lpToken: string | null;
}

export interface PairRecord extends PairTokens {
  pairId: number;
  reserve0: ChainDecimal;
  reserve1: ChainDecimal;
  balance0: ChainDecimal;
  balance1: ChainDecimal;
  totalSupply: ChainDecimal;
  /** Contract `Datetime` text as stored ("YYYY-MM-DD HH:MM:SS"). */
  blockTimestampLast: string | null;
  creationTime: string | null;
}

const READ_SENDER = '0'.repeat(64);

/** Sorted token order as the contracts store it (string comparison = code point order). */
export function sortTokens(a: string, b: string): [string, string] {
  return b < a ? [b, a] : [a, b];
}

export interface DexReaderOptions {
  now?: () => number;
  /** How long a token's precision is trusted (default 5 minutes). */
  precisionTtlMs?: number;
  /** Parallel reads per request (default 16). */
  concurrency?: number;
}

export class DexReader {
  private readonly tokens = new Map<number, PairTokens>();
  private readonly precisionCache = new Map<string, { value: Precision; until: number }>();
  private readonly now: () => number;
  private readonly precisionTtlMs: number;
  readonly concurrency: number;

  constructor(readonly node: ChainNode, readonly contracts: DexContracts = DEFAULT_DEX_CONTRACTS, options: DexReaderOptions = {}) {
    this.now = options.now ?? Date.now;
    this.precisionTtlMs = options.precisionTtlMs ?? 300_000;
    this.concurrency = options.concurrency ?? 16;
  }

  /** Runs `fn` on one consistent snapshot of committed state. */
  read<T>(fn: (s: StateSnapshot) => Promise<T>, signal?: AbortSignal): Promise<T> {
    return readConsistently(this.node, fn, signal);
  }

  private pk(id: number, field: string): string {
    return `${this.contracts.pairs}.pairs:${id}:${field}`;
  }

  /** `con_pairs.pairs_num`: the last pair id (ids run 1..n). */
  async pairCount(s: StateSnapshot): Promise<number> {
    return (await s.int(`${this.contracts.pairs}.pairs_num`)) ?? 0;
  }

  async pairIdFor(s: StateSnapshot, tokenA: string, tokenB: string): Promise<number | null> {
    if (tokenA === tokenB) return null;
    const [t0, t1] = sortTokens(tokenA, tokenB);
    return s.int(`${this.contracts.pairs}.toks_to_pair:${t0}:${t1}`);
  }

  async pairTokens(s: StateSnapshot, id: number): Promise<PairTokens | null> {
    const cached = this.tokens.get(id);
    if (cached) return cached;
    const [token0, token1, lpToken] = await Promise.all([s.string(this.pk(id, 'token0')), s.string(this.pk(id, 'token1')), s.string(this.pk(id, 'lpToken'))]);
    if (!token0 || !token1) return null;
    const value = { token0, token1, lpToken: lpToken || null };
    // Only cache complete records: a pair's LP token is set when it is created.
    if (value.lpToken) this.tokens.set(id, value);
    return value;
  }

  async pair(s: StateSnapshot, id: number): Promise<PairRecord | null> {
    const tokens = await this.pairTokens(s, id);
    if (!tokens) return null;
    const dec = async (field: string) => (await s.decimal(this.pk(id, field))) ?? ChainDecimal.ZERO;
    const [reserve0, reserve1, balance0, balance1, totalSupply, blockTimestampLast, creationTime] = await Promise.all([
      dec('reserve0'), dec('reserve1'), dec('balance0'), dec('balance1'), dec('totalSupply'),
      s.text(this.pk(id, 'blockTimestampLast')), s.text(this.pk(id, 'creationTime')),
    ]);
    return { pairId: id, ...tokens, reserve0, reserve1, balance0, balance1, totalSupply, blockTimestampLast, creationTime };
  }

  /** Tokens of pairs `1..count` (cached after the first read). */
  async allPairTokens(s: StateSnapshot, count: number): Promise<Array<PairTokens & { pairId: number }>> {
    const ids = Array.from({ length: count }, (_, i) => i + 1);
    const rows = await mapLimit(ids, this.concurrency, async (id) => {
      const t = await this.pairTokens(s, id);
      return t ? { pairId: id, ...t } : null;
    });
    return rows.filter((r): r is PairTokens & { pairId: number } => r !== null);
  }

  /** Current reserves of the given pairs. */
  async reserves(s: StateSnapshot, pairs: ReadonlyArray<PairTokens & { pairId: number }>): Promise<Array<PairTokens & { pairId: number; reserve0: ChainDecimal; reserve1: ChainDecimal }>> {
    return mapLimit(pairs, this.concurrency, async (p) => {
      const [r0, r1] = await Promise.all([s.decimal(this.pk(p.pairId, 'reserve0')), s.decimal(this.pk(p.pairId, 'reserve1'))]);
      return { ...p, reserve0: r0 ?? ChainDecimal.ZERO, reserve1: r1 ?? ChainDecimal.ZERO };
    });
  }

  /** `con_dex.getTradeFeeBps(account)`: 0 for zero-fee signers, else 30. */
  async feeBps(s: StateSnapshot, account: string | null): Promise<FeeBps> {
    if (!account) return 30;
    return (await s.truthy(`${this.contracts.router}.zero_fee_signers:${account}`)) ? 0 : 30;
  }

  /** `con_dex.fee_on_transfer_tokens:<token>`. */
  feeOnTransfer(s: StateSnapshot, token: string): Promise<boolean> {
    return s.truthy(`${this.contracts.router}.fee_on_transfer_tokens:${token}`);
  }

  /** XSC001 allowance `<token>.approvals:<owner>:<spender>` (missing → 0). */
  async allowance(s: StateSnapshot, token: string, owner: string, spender: string): Promise<ChainDecimal> {
    return (await s.decimal(`${token}.approvals:${owner}:${spender}`)) ?? ChainDecimal.ZERO;
  }

  /** `<token>.balances:<address>` (missing → 0). */
  async balance(s: StateSnapshot, token: string, address: string): Promise<ChainDecimal> {
    return (await s.decimal(`${token}.balances:${address}`)) ?? ChainDecimal.ZERO;
  }

  async registeredLpToken(s: StateSnapshot, tokenA: string, tokenB: string): Promise<string | null> {
    const [t0, t1] = sortTokens(tokenA, tokenB);
    return s.string(`${this.contracts.pairs}.registered_lp_tokens:${t0}:${t1}`);
  }

  /** What the protocol-fee hook of the next mint/burn of `pairId` will see. */
  async feeState(s: StateSnapshot, pairId: number): Promise<FeeState> {
    const [feeOn, epoch, pairEpoch, kLast] = await Promise.all([
      s.truthy(`${this.contracts.pairs}.feeTo`),
      s.int(`${this.contracts.pairs}.fee_epoch`),
      s.int(this.pk(pairId, 'feeEpoch')),
      s.decimal(this.pk(pairId, 'kLast')),
    ]);
    return { feeOn, epochCurrent: (epoch ?? 0) === (pairEpoch ?? 0), kLast: kLast ?? ChainDecimal.ZERO };
  }

  /**
   * A token's `get_metadata().precision` as the contracts' `normalize_token_amount` sees it:
   * null unless the token exports `get_metadata()` (from `/contract_methods`); then the stored
   * `metadata:precision`, or the dry-run result of `get_metadata()` when it is not stored.
   */
  async precision(s: StateSnapshot, token: string): Promise<Precision> {
    const cached = this.precisionCache.get(token);
    if (cached && cached.until > this.now()) return cached.value;
    const value = await this.readPrecision(s, token);
    this.precisionCache.set(token, { value, until: this.now() + this.precisionTtlMs });
    return value;
  }

  async precisions(s: StateSnapshot, tokens: Iterable<string>): Promise<Map<string, Precision>> {
    const list = [...new Set(tokens)];
    const values = await mapLimit(list, this.concurrency, (t) => this.precision(s, t));
    return new Map(list.map((t, i) => [t, values[i]!]));
  }

  private async readPrecision(s: StateSnapshot, token: string): Promise<Precision> {
    const methods = await s.query(QueryPath.contractMethods(token));
    const json = methods.code === 0 ? safeJson(() => abciJson(methods)) : null;
    const list = json && typeof json === 'object' && !Array.isArray(json) ? (json as { methods?: unknown }).methods : null;
    const exported = Array.isArray(list) && list.some((m) => m && typeof m === 'object' && (m as { name?: unknown }).name === 'get_metadata' &&
      (!Array.isArray((m as { arguments?: unknown }).arguments) || ((m as { arguments: unknown[] }).arguments).length === 0));
    if (!exported) return null;
    const stored = readAbciPrecision(await s.get(`${token}.metadata:precision`));
    if (stored !== undefined) return stored;
    return this.simulatedPrecision(s, token);
  }

  private async simulatedPrecision(s: StateSnapshot, token: string): Promise<Precision> {
    const request = compactJson({ contract: token, function: 'get_metadata', kwargs: {}, sender: READ_SENDER }, { asciiOnly: false, sortKeys: true });
    const answer = await s.query(QueryPath.simulateTx(Buffer.from(request, 'utf8').toString('hex')));
    const json = answer.code === 0 ? safeJson(() => abciJson(answer)) : null;
    if (!json || typeof json !== 'object' || Array.isArray(json)) return null;
    const out = json as { status?: unknown; result?: unknown };
    if (Number(out.status) !== 0) return null;
    const result = out.result;
    if (result && typeof result === 'object' && !Array.isArray(result)) {
      const p = (result as Record<string, unknown>).precision;
      return typeof p === 'number' && Number.isInteger(p) && p >= 0 ? p : typeof p === 'bigint' && p >= 0n ? Number(p) : null;
    }
    // chainhost nodes return the repr string: {'precision': 8, …}
    const match = typeof result === 'string' ? /['"]precision['"]\s*:\s*(\d+)\b(?!\.)/.exec(result) : null;
    return match ? Number(match[1]) : null;
  }
}

function safeJson<T>(f: () => T): T | null {
  try {
    return f();
  } catch {
    return null;
  }
}

/** `metadata:precision` as stored: an int ≥ 0 → it; missing → undefined (ask the contract); anything else → null (not an int). */
function readAbciPrecision(answer: { info: string; value: { text: string } | null }): Precision | undefined {
  if (!answer.value) return undefined;
  if (answer.info !== 'int') return null;
  const n = Number(answer.value.text);
  return Number.isInteger(n) && n >= 0 ? n : null;
}
