import { ChainDecimal } from './decimal.js';

/**
 * Runtime values as contracts see them, after the wire wrappers (`__fixed__`, `__time__`,
 * `__delta__`, `__bytes__`, `__big_int__`) are decoded. Integers are always bigint so no
 * value ever passes through a lossy JS number. Objects are null-prototype records so keys
 * like `__proto__` stay ordinary data.
 */
export type ChainValue =
  | null
  | boolean
  | string
  | bigint
  | ChainDecimal
  | ChainDatetime
  | ChainTimedelta
  | Uint8Array
  | ChainValue[]
  | ChainRecord;

export interface ChainRecord {
  [key: string]: ChainValue;
}

export function chainRecord(entries?: Iterable<readonly [string, ChainValue]>): ChainRecord {
  const out = Object.create(null) as ChainRecord;
  if (entries) for (const [k, v] of entries) out[k] = v;
  return out;
}

export function isChainRecord(v: unknown): v is ChainRecord {
  return (
    typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array) &&
    !(v instanceof ChainDecimal) && !(v instanceof ChainDatetime) && !(v instanceof ChainTimedelta)
  );
}

const MICROS_PER_SECOND = 1_000_000n;
const MICROS_PER_DAY = 86_400n * MICROS_PER_SECOND;

/** A contract `Timedelta`, normalised like Python's timedelta (0 ≤ seconds < 86400, 0 ≤ µs < 10^6). */
export class ChainTimedelta {
  readonly days: number;
  readonly seconds: number;
  readonly microseconds: number;

  constructor(days: number, seconds = 0, microseconds = 0) {
    const total = BigInt(days) * MICROS_PER_DAY + BigInt(seconds) * MICROS_PER_SECOND + BigInt(microseconds);
    const d = floorDiv(total, MICROS_PER_DAY);
    const rest = total - d * MICROS_PER_DAY;
    this.days = Number(d);
    this.seconds = Number(rest / MICROS_PER_SECOND);
    this.microseconds = Number(rest % MICROS_PER_SECOND);
  }

  static fromMicros(total: bigint): ChainTimedelta {
    return new ChainTimedelta(0, 0, 0).plusMicros(total);
  }

  totalMicros(): bigint {
    return BigInt(this.days) * MICROS_PER_DAY + BigInt(this.seconds) * MICROS_PER_SECOND + BigInt(this.microseconds);
  }

  private plusMicros(total: bigint): ChainTimedelta {
    const d = floorDiv(total, MICROS_PER_DAY);
    const rest = total - d * MICROS_PER_DAY;
    return new ChainTimedelta(Number(d), Number(rest / MICROS_PER_SECOND), Number(rest % MICROS_PER_SECOND));
  }

  /** Python `str(timedelta)`: "1 day, 0:00:05", "0:01:00". */
  toString(): string {
    const h = Math.floor(this.seconds / 3600);
    const m = Math.floor((this.seconds % 3600) / 60);
    const s = this.seconds % 60;
    const clock = `${h}:${pad(m, 2)}:${pad(s, 2)}${this.microseconds ? '.' + pad(this.microseconds, 6) : ''}`;
    if (this.days === 0) return clock;
    return `${this.days} day${Math.abs(this.days) === 1 ? '' : 's'}, ${clock}`;
  }
}

/** A contract `Datetime`: naive, UTC by convention, microsecond resolution. */
export class ChainDatetime {
  /** Microseconds since 1970-01-01T00:00:00 (UTC). */
  readonly epochMicros: bigint;

  private constructor(epochMicros: bigint) {
    this.epochMicros = epochMicros;
  }

  static fromParts(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, microsecond = 0): ChainDatetime {
    const parts = [year, month, day, hour, minute, second, microsecond];
    if (!parts.every(Number.isInteger)) throw new TypeError(`datetime parts must be integers: ${parts.join(',')}`);
    if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour < 0 || hour > 23 ||
        minute < 0 || minute > 59 || second < 0 || second > 59 || microsecond < 0 || microsecond > 999_999 ||
        year < 1 || year > 9999) {
      throw new RangeError(`invalid datetime parts: ${parts.join(',')}`);
    }
    const ms = Date.UTC(year, month - 1, day, hour, minute, second);
    const fixedYear = new Date(ms);
    fixedYear.setUTCFullYear(year); // Date.UTC maps years 0..99 to 1900..1999
    return new ChainDatetime(BigInt(fixedYear.getTime()) * 1000n + BigInt(microsecond));
  }

  static fromEpochMicros(micros: bigint): ChainDatetime {
    return new ChainDatetime(micros);
  }

  /** From block time in nanoseconds since the epoch (CometBFT header time), keeping µs. */
  static fromNanos(nanos: bigint): ChainDatetime {
    return new ChainDatetime(nanos / 1000n);
  }

  static fromDate(date: Date): ChainDatetime {
    return new ChainDatetime(BigInt(date.getTime()) * 1000n);
  }

  parts(): [number, number, number, number, number, number, number] {
    const ms = Number(floorDiv(this.epochMicros, 1000n));
    const d = new Date(ms);
    const micro = Number(this.epochMicros - floorDiv(this.epochMicros, MICROS_PER_SECOND) * MICROS_PER_SECOND);
    return [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), micro];
  }

  plus(delta: ChainTimedelta): ChainDatetime {
    return new ChainDatetime(this.epochMicros + delta.totalMicros());
  }

  minus(other: ChainDatetime): ChainTimedelta {
    return ChainTimedelta.fromMicros(this.epochMicros - other.epochMicros);
  }

  cmp(other: ChainDatetime): -1 | 0 | 1 {
    return this.epochMicros < other.epochMicros ? -1 : this.epochMicros > other.epochMicros ? 1 : 0;
  }

  toDate(): Date {
    return new Date(Number(floorDiv(this.epochMicros, 1000n)));
  }

  /** The contract `Datetime` string form: "YYYY-MM-DD HH:MM:SS" plus ".ffffff" when µs ≠ 0. */
  toString(): string {
    const [y, mo, d, h, mi, s, us] = this.parts();
    return `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)} ${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}${us ? '.' + pad(us, 6) : ''}`;
  }
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(2000, month, 0)).getUTCDate() + (month === 2 && isLeap(year) && !isLeap(2000) ? 1 : 0) -
    (month === 2 && !isLeap(year) && isLeap(2000) ? 1 : 0);
}

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}
