/**
 * # The devnet chi model
 *
 * The real chain meters a Python-subset VM node by node (contracts.md §5.1). The devnet runs the
 * canonical contracts natively in TypeScript, so it cannot count AST nodes; instead it charges a
 * deterministic model built from the VM's own constants. The same transaction against the same
 * state always costs the same chi, failures included, and the *shape* of the cost follows the
 * chain (storage bytes dominate, events and cross-contract calls are expensive), but absolute
 * numbers differ from a real node by a few chi — treat real-node simulation as authoritative.
 *
 * Raw units (1 chi = 1,000 raw):
 *
 * | what                                   | raw cost                                             |
 * |----------------------------------------|------------------------------------------------------|
 * | transaction bytes (not in simulation)  | 1 × byte length of the runtime-encoded `{metadata, payload}` |
 * | entry call dispatch                    | 5,000                                                |
 * | function body (per native function)    | its declared `cost` (default 1,500; the DEX declares more) — stands in for the VM's statement/expression costs |
 * | cross-contract call (`ctx.call`)       | 10,000 + the callee's dispatch-free work             |
 * | storage read (Variable get / Hash get) | 1,280 + 2 × (len(key) + len(JSON(value)))            |
 * | storage write (set / `+=`)             | 5,120 + 25 × (len(key) + len(JSON(value))); a `+=` is a read plus a write |
 * | event emit                             | 8,000                                                |
 * | return value                           | 1 × len(JSON(result))                                |
 * | contract deployment                    | 5,000 + 1 × source bytes                             |
 * | shielded tree append / proof check     | 250,000 + 500,000 per commitment / 750,000 + 50 per payload byte |
 *
 * `JSON(value)` is the VM's metering encoding: compact JSON, UTF-8 (not ASCII-escaped),
 * decimals as `{"__fixed__":"<str>"}`, ints outside int64 as `{"__big_int__":"…"}`, datetimes as
 * `{"__time__":[7 ints]}`. Reads of the VM's contract code and of `__owner__` are free.
 *
 * Totals: `chi_used = raw // 1000 + 5`, capped at the budget (`chi_supplied`, or the readonly
 * cap `simulation_max_chi` in a dry run). Execution aborts with `Out of chi.` the moment
 * `raw > budget × 1000` (or raw > 50,000,000,000); `chi_used` is then the budget. The write set is
 * capped at 128 KiB of key+value bytes (`You have exceeded the maximum write capacity per transaction!`).
 *
 * Per-contract costs (`contract_costs`, the developer-reward weights of §5.3) follow the VM: each
 * contract frame accumulates the raw cost spent while it is the innermost contract, children
 * excluded, and the fixed 5-chi overhead (5,000 raw) is attributed to the entry contract.
 *
 * Fees (`paid_metered`): the sender's `currency.balances` becomes
 * `max(balance − chi_used / chi_rate, 0)` on success and failure; rewards (§5.3) are credited on
 * success only. See executor.ts and rewards.ts.
 */
import { ChainDatetime, ChainDecimal, ChainTimedelta, type ChainValue } from 'chainhost/chain';
import { ContractError, OutOfChiError } from './errors.js';

export const RAW_PER_CHI = 1_000;
export const TX_BASE_CHI = 5;
export const MAX_RAW = 50_000_000_000;
export const WRITE_CAP_BYTES = 128 * 1024;

export const COST = {
  txByte: 1,
  returnByte: 1,
  readByte: 2,
  writeByte: 25,
  callDispatch: 5_000,
  crossContractCall: 10_000,
  eventEmit: 8_000,
  storageGet: 1_280,
  storageSet: 5_120,
  defaultFunctionBody: 1_500,
  deploymentBase: 5_000,
  deploymentSourceByte: 1,
  shieldedAppendBase: 250_000,
  shieldedAppendPerCommitment: 500_000,
  proofVerify: 750_000,
  proofPayloadByte: 50,
} as const;

export const WRITE_CAP_MESSAGE = 'You have exceeded the maximum write capacity per transaction!';

interface Frame {
  contract: string;
  start: number;
  child: number;
}

/**
 * Accumulates raw cost for one transaction. Raw costs stay far below 2^53, so plain numbers are
 * exact and cheap; the budget check happens on every charge.
 */
export class Meter {
  raw = 0;
  private written = 0;
  private readonly budgetRaw: number;
  private readonly frames: Frame[] = [];
  private readonly markers: boolean[] = [];
  private readonly costs = new Map<string, number>();
  private readonly outOfChiMessage: string;

  constructor(budgetChi: number, outOfChiMessage = 'Out of chi.') {
    this.budgetRaw = Math.max(0, Math.floor(budgetChi)) * RAW_PER_CHI;
    this.outOfChiMessage = outOfChiMessage;
  }

  charge(cost: number): void {
    if (cost <= 0) return;
    this.raw += cost;
    if ((this.budgetRaw > 0 && this.raw > this.budgetRaw) || this.raw > MAX_RAW) {
      throw new OutOfChiError(this.outOfChiMessage);
    }
  }

  chargeRead(key: string, value: ChainValue | undefined): void {
    this.charge(COST.storageGet + COST.readByte * (utf8Length(key) + encodedLength(value ?? null)));
  }

  chargeWrite(key: string, value: ChainValue | null): void {
    const bytes = utf8Length(key) + encodedLength(value);
    this.written += bytes;
    if (this.written >= WRITE_CAP_BYTES) throw new ContractError('AssertionError', WRITE_CAP_MESSAGE);
    this.charge(COST.storageSet + COST.writeByte * bytes);
  }

  chargeReturn(value: ChainValue): void {
    this.charge(COST.returnByte * encodedLength(value));
  }

  /** Opens the entry contract's frame (the VM's begin_contract_metering). */
  begin(contract: string): void {
    this.frames.length = 0;
    this.markers.length = 0;
    this.costs.clear();
    this.frames.push({ contract, start: this.raw, child: 0 });
  }

  /** Called around every cross-contract call; a frame is pushed only when the contract changes. */
  enter(contract: string): void {
    const top = this.frames[this.frames.length - 1];
    const pushed = top === undefined || top.contract !== contract;
    if (pushed) this.frames.push({ contract, start: this.raw, child: 0 });
    this.markers.push(pushed);
  }

  exit(): void {
    if (this.markers.pop()) this.closeFrame();
  }

  /** Closes all frames and returns `contract_costs` with the fixed overhead on `overheadContract`. */
  finish(overheadContract: string | null): Map<string, number> {
    while (this.frames.length > 0) this.closeFrame();
    if (overheadContract !== null) {
      this.costs.set(overheadContract, (this.costs.get(overheadContract) ?? 0) + TX_BASE_CHI * RAW_PER_CHI);
    }
    return new Map(this.costs);
  }

  chiUsed(): number {
    let chi = Math.floor(this.raw / RAW_PER_CHI) + TX_BASE_CHI;
    if (this.budgetRaw > 0) {
      const budget = this.budgetRaw / RAW_PER_CHI;
      if (this.raw > MAX_RAW || chi > budget) chi = budget;
    }
    return chi;
  }

  private closeFrame(): void {
    const frame = this.frames.pop();
    if (!frame) return;
    const own = Math.max(0, this.raw - frame.start - frame.child);
    this.costs.set(frame.contract, (this.costs.get(frame.contract) ?? 0) + own);
    const parent = this.frames[this.frames.length - 1];
    if (parent) parent.child += own;
  }
}

const PLAIN_ASCII = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** UTF-8 byte length (ASCII fast path). */
export function utf8Length(s: string): number {
  if (PLAIN_ASCII.test(s)) return s.length;
  return Buffer.byteLength(s, 'utf8');
}

/** Byte length of a JSON string literal as serde_json writes it (UTF-8, minimal escapes). */
function jsonStringLength(s: string): number {
  if (PLAIN_ASCII.test(s)) return s.length + 2;
  let n = 2;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22 || c === 0x5c || c === 0x08 || c === 0x0c || c === 0x0a || c === 0x0d || c === 0x09) n += 2;
    else if (c < 0x20) n += 6;
    else if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) { n += 4; i++; }
    else n += 3;
  }
  return n;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Length of the VM's metering JSON of a value, without building the text. */
export function encodedLength(v: ChainValue): number {
  if (v === null) return 4;
  switch (typeof v) {
    case 'boolean':
      return v ? 4 : 5;
    case 'string':
      return jsonStringLength(v);
    case 'bigint': {
      const digits = v.toString().length;
      return v >= INT64_MIN && v <= INT64_MAX ? digits : 18 + digits; // {"__big_int__":"…"}
    }
  }
  if (v instanceof ChainDecimal) return 16 + v.toFixedWrapperString().length; // {"__fixed__":"…"}
  if (v instanceof ChainDatetime) return 13 + v.parts().join(',').length + 2; // {"__time__":[…]}
  if (v instanceof ChainTimedelta) return 14 + `${v.days},${v.seconds}`.length + 2; // {"__delta__":[d,s]}
  if (v instanceof Uint8Array) return 16 + v.length * 2; // {"__bytes__":"hex"}
  if (Array.isArray(v)) {
    let n = 2 + Math.max(0, v.length - 1);
    for (const item of v) n += encodedLength(item);
    return n;
  }
  const keys = Object.keys(v);
  let n = 2 + Math.max(0, keys.length - 1);
  for (const k of keys) n += jsonStringLength(k) + 1 + encodedLength(v[k]!);
  return n;
}
