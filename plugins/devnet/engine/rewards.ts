import { Decimal } from 'decimal.js';
import { ChainDecimal, type ChainValue, isChainRecord } from 'chainhost/chain';
import type { RewardBuckets, RewardRecord, StateReader } from './types.js';

/**
 * The reward split of a successful transaction (contracts.md §5.3), computed the way the node's
 * rewards handler does: intermediate sums in Python `decimal` under the runtime's global context
 * (91 significant digits, ROUND_DOWN — so `allocated` keeps digits a 30-place decimal would cut),
 * each paid amount a 30-place contract decimal (`ContractingDecimal(str(x))`, truncating), and
 * every amount divided by the chi rate at the end. The burn share is simply not distributed.
 *
 * Config read from state: `rewards.S:value` = [validator, burn, foundation, developer] ratios,
 * `chi_cost.S:value`, `foundation.owner`, `<contract>.__developer__` (missing, empty or "sys" →
 * the foundation owner), and for validators `validators.active_validators`,
 * `validators.powers:<v>`, `validators.reward_keys:<v>`, `validators.commission_bps:<v>`,
 * `validators.self_bond:<v>`, `validators.delegator_lists:<v>`, `validators.delegations:<d>:<v>`,
 * `validators.delegator_reward_keys:<d>:<v>`.
 */

const PyDecimal = Decimal.clone({ precision: 91, rounding: Decimal.ROUND_DOWN, toExpNeg: -9e15, toExpPos: 9e15 });
type PyDec = InstanceType<typeof PyDecimal>;

const ZERO = new PyDecimal(0);

function py(v: ChainValue | undefined): PyDec {
  if (v === undefined || v === null) return ZERO;
  if (typeof v === 'bigint') return new PyDecimal(v.toString());
  if (v instanceof ChainDecimal) return new PyDecimal(v.toString());
  if (typeof v === 'string') return new PyDecimal(v.trim());
  if (typeof v === 'boolean') return new PyDecimal(v ? 1 : 0);
  if (isChainRecord(v) && typeof v['__fixed__'] === 'string') return new PyDecimal(v['__fixed__']);
  throw new TypeError(`not a reward number: ${String(v)}`);
}

/** `ContractingDecimal(str(x))`: truncated to 30 places. */
function contracting(d: PyDec): ChainDecimal {
  return ChainDecimal.parse(d.toFixed());
}

/** The last int or text converted: the chi rate, read by every transaction, is usually the same int. */
let lastConverted: { from: bigint | string; to: ChainDecimal } | undefined;

function asChainDecimal(v: ChainValue): ChainDecimal {
  if (v instanceof ChainDecimal) return v;
  if (typeof v !== 'bigint' && typeof v !== 'string') return contracting(py(v));
  if (lastConverted?.from === v) return lastConverted.to;
  const to = contracting(py(v));
  lastConverted = { from: v, to };
  return to;
}

export interface RewardSplit {
  /** Null when nothing was distributed (the output's `rewards: null`). */
  buckets: RewardBuckets | null;
  records: RewardRecord[];
  /** Credit per `currency.balances:<recipient>` key, in first-credit order. */
  deltas: Map<string, ChainDecimal>;
}

export interface RewardInput {
  state: StateReader;
  chiUsed: number;
  /** The transaction's target contract (the fallback developer-reward source). */
  contract: string;
  /** Per-contract raw costs from the meter. */
  contractCosts: ReadonlyMap<string, number>;
  currencyContract?: string;
}

const NONE: RewardSplit = { buckets: null, records: [], deltas: new Map() };

export function computeRewards(input: RewardInput): RewardSplit {
  const { state, chiUsed } = input;
  const balances = `${input.currencyContract ?? 'currency'}.balances:`;
  const split = state.get('rewards.S:value');
  if (!Array.isArray(split) || split.length === 0 || chiUsed <= 0) return NONE;
  const chiRateValue = state.get('chi_cost.S:value');
  const foundationOwner = state.get('foundation.owner');
  if (chiRateValue === undefined || chiRateValue === null || typeof foundationOwner !== 'string') return NONE;
  const chiRate = asChainDecimal(chiRateValue);
  if (chiRate.isZero()) return NONE;
  if (split.length !== 4) return NONE;
  // Fast path (a plain transfer): one developer weight and no validators need no division, and
  // exact 30-place decimals give the same digits as the 91-digit context. Otherwise emulate it.
  const weightsIn = [...input.contractCosts.entries()].filter(([, w]) => w > 0);
  const active = state.get('validators.active_validators');
  const simple = weightsIn.length <= 1 && (!Array.isArray(active) || active.length === 0) && split.every((v) => v instanceof ChainDecimal || typeof v === 'bigint');
  if (simple) return simpleSplit(state, input, split as Array<ChainDecimal | bigint>, chiRate, foundationOwner, weightsIn[0]?.[0] ?? input.contract, balances);
  const [validatorRatio, , foundationRatio, developerRatio] = split.map((v) => py(v)) as [PyDec, PyDec, PyDec, PyDec];
  const total = new PyDecimal(chiUsed);

  const buckets: RewardBuckets = {
    validator_reward: new Map(),
    delegator_reward: new Map(),
    foundation_reward: new Map(),
    developer_reward: new Map(),
  };
  const records: RewardRecord[] = [];
  const deltas = new Map<string, ChainDecimal>();
  const credit = (recipient: string, amount: ChainDecimal): void => {
    const key = balances + recipient;
    deltas.set(key, (deltas.get(key) ?? ChainDecimal.ZERO).plus(amount));
  };
  const addBucket = (bucket: Map<string, ChainDecimal>, recipient: string, amount: ChainDecimal): void => {
    const existing = bucket.get(recipient);
    bucket.set(recipient, existing === undefined ? amount : existing.plus(amount));
  };

  // Foundation: round(ratio × chi_used, 8) under the ROUND_DOWN context, then ÷ chi rate.
  const foundationChi = contracting(foundationRatio.times(total).toDecimalPlaces(8, Decimal.ROUND_DOWN));
  if (!foundationChi.isZero()) {
    const amount = foundationChi.div(chiRate);
    buckets.foundation_reward.set(foundationOwner, amount);
    credit(foundationOwner, amount);
    records.push({ type: 'foundation_reward', recipient: foundationOwner, amount });
  }

  // Validators and their delegators.
  for (const r of validatorRecords(state, total.times(validatorRatio))) {
    const amount = (r.amount as ChainDecimal).div(chiRate);
    addBucket(r.type === 'delegator_reward' ? buckets.delegator_reward : buckets.validator_reward, r.recipient, amount);
    credit(r.recipient, amount);
    records.push({ ...r, amount });
  }

  // Developers, weighted by per-contract raw cost (children excluded), sorted by contract name.
  const developerTotal = total.times(developerRatio);
  let weights = [...input.contractCosts.entries()]
    .filter(([, w]) => w > 0)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([c, w]) => [c, new PyDecimal(w)] as const);
  if (weights.length === 0) weights = [[input.contract, new PyDecimal(1)]];
  const totalWeight = weights.reduce((s, [, w]) => s.plus(w), ZERO);
  let allocated = ZERO;
  const perDeveloper = new Map<string, ChainDecimal>();
  const developerRecords: Array<{ recipient: string; source: string; share: ChainDecimal }> = [];
  weights.forEach(([source, weight], index) => {
    let share: PyDec;
    if (index === weights.length - 1) share = developerTotal.minus(allocated);
    else {
      share = developerTotal.times(weight).div(totalWeight);
      allocated = allocated.plus(share);
    }
    let recipient = state.get(`${source}.__developer__`);
    if (typeof recipient !== 'string' || recipient === '' || recipient === 'sys') recipient = foundationOwner;
    const shareAmount = contracting(share);
    perDeveloper.set(recipient, (perDeveloper.get(recipient) ?? ChainDecimal.ZERO).plus(shareAmount));
    developerRecords.push({ recipient, source, share: shareAmount });
  });
  for (const [developer, reward] of perDeveloper) {
    const amount = reward.div(chiRate);
    addBucket(buckets.developer_reward, developer, amount);
    credit(developer, amount);
  }
  for (const r of developerRecords) {
    records.push({ type: 'developer_reward', recipient: r.recipient, amount: r.share.div(chiRate), contract: r.source });
  }

  const anything = Object.values(buckets).some((b: Map<string, ChainDecimal>) => b.size > 0);
  if (!anything) return { buckets: null, records, deltas: new Map() };
  return { buckets, records, deltas };
}

function simpleSplit(
  state: StateReader, input: RewardInput, split: Array<ChainDecimal | bigint>, chiRate: ChainDecimal,
  foundationOwner: string, source: string, balances: string,
): RewardSplit {
  const total = ChainDecimal.from(BigInt(input.chiUsed));
  const ratio = (i: number): ChainDecimal => ChainDecimal.from(split[i]!);
  const buckets: RewardBuckets = { validator_reward: new Map(), delegator_reward: new Map(), foundation_reward: new Map(), developer_reward: new Map() };
  const records: RewardRecord[] = [];
  const deltas = new Map<string, ChainDecimal>();
  const foundationChi = ratio(2).times(total).truncate(8);
  if (!foundationChi.isZero()) {
    const amount = foundationChi.div(chiRate);
    buckets.foundation_reward.set(foundationOwner, amount);
    deltas.set(balances + foundationOwner, amount);
    records.push({ type: 'foundation_reward', recipient: foundationOwner, amount });
  }
  const share = total.times(ratio(3));
  let recipient = state.get(`${source}.__developer__`);
  if (typeof recipient !== 'string' || recipient === '' || recipient === 'sys') recipient = foundationOwner;
  const amount = share.div(chiRate);
  buckets.developer_reward.set(recipient, amount);
  const key = balances + recipient;
  deltas.set(key, (deltas.get(key) ?? ChainDecimal.ZERO).plus(amount));
  records.push({ type: 'developer_reward', recipient, amount, contract: source });
  const anything = buckets.foundation_reward.size > 0 || buckets.developer_reward.size > 0;
  if (!anything) return { buckets: null, records, deltas: new Map() };
  return { buckets, records, deltas };
}

function validatorRecords(state: StateReader, validatorTotal: PyDec): RewardRecord[] {
  const active = state.get('validators.active_validators');
  if (!Array.isArray(active) || active.length === 0) return [];
  const nodes = active.filter((v): v is string => typeof v === 'string');
  if (nodes.length === 0) return [];
  const weighted = nodes.map((v) => {
    const power = state.get(`validators.powers:${v}`);
    let w = power === undefined || power === null ? new PyDecimal(1) : py(power);
    if (w.lte(0)) w = new PyDecimal(1);
    return [v, w] as const;
  });
  const totalWeight = weighted.reduce((s, [, w]) => s.plus(w), ZERO);
  const out: RewardRecord[] = [];
  let allocated = ZERO;
  weighted.forEach(([validator, weight], index) => {
    let share: PyDec;
    if (index === weighted.length - 1) share = validatorTotal.minus(allocated);
    else {
      share = validatorTotal.times(weight).div(totalWeight);
      allocated = allocated.plus(share);
    }
    out.push(...singleValidator(state, validator, share));
  });
  return out;
}

function singleValidator(state: StateReader, validator: string, totalReward: PyDec): RewardRecord[] {
  const rewardKeyValue = state.get(`validators.reward_keys:${validator}`);
  const operatorKey = typeof rewardKeyValue === 'string' && rewardKeyValue !== '' ? rewardKeyValue : validator;
  let bps = py(state.get(`validators.commission_bps:${validator}`));
  if (bps.lt(0)) bps = ZERO;
  if (bps.gt(10000)) bps = new PyDecimal(10000);
  let selfBond = py(state.get(`validators.self_bond:${validator}`));
  if (selfBond.lt(0)) selfBond = ZERO;

  const delegators: Array<{ delegator: string; key: string; weight: PyDec }> = [];
  let totalDelegated = ZERO;
  const list = state.get(`validators.delegator_lists:${validator}`);
  for (const d of Array.isArray(list) ? list : []) {
    if (typeof d !== 'string') continue;
    let delegation = py(state.get(`validators.delegations:${d}:${validator}`));
    if (delegation.lt(0)) delegation = ZERO;
    if (delegation.lte(0)) continue;
    totalDelegated = totalDelegated.plus(delegation);
    const k = state.get(`validators.delegator_reward_keys:${d}:${validator}`);
    delegators.push({ delegator: d, key: typeof k === 'string' && k !== '' ? k : d, weight: delegation });
  }

  const stakeBase = selfBond.plus(totalDelegated);
  if (stakeBase.lte(0)) {
    return [{ type: 'validator_reward', recipient: operatorKey, amount: contracting(totalReward), validatorKey: validator }];
  }
  const commission = totalReward.times(bps).div(10000);
  const remainder = totalReward.minus(commission);
  let operatorTotal = commission;
  if (selfBond.gt(0)) operatorTotal = operatorTotal.plus(remainder.times(selfBond).div(stakeBase));
  const out: RewardRecord[] = [];
  if (operatorTotal.gt(0)) {
    out.push({ type: 'validator_reward', recipient: operatorKey, amount: contracting(operatorTotal), validatorKey: validator });
  }
  let allocated = operatorTotal;
  delegators.forEach((d, index) => {
    let share: PyDec;
    if (index === delegators.length - 1) share = totalReward.minus(allocated);
    else {
      share = remainder.times(d.weight).div(stakeBase);
      allocated = allocated.plus(share);
    }
    out.push({
      type: 'delegator_reward', recipient: d.key, amount: contracting(share),
      validatorKey: validator, delegatorKey: d.delegator,
    });
  });
  return out;
}
