import { VmError } from './errors.js';

/**
 * Naive datetimes with microseconds (chrono `NaiveDateTime`) and whole-second timedeltas
 * (xian-vm-core `VmTimeDelta`: weeks-first constructor, attributes are totals).
 */
const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;
const MIN_YEAR = -262143; // chrono's NaiveDate range
const MAX_YEAR = 262142;
const US_PER_SECOND = 1_000_000n;

function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

function civilFromDays(z: number): [number, number, number] {
  const zz = z + 719468;
  const era = Math.floor(zz / 146097);
  const doe = zz - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [m <= 2 ? yoe + era * 400 + 1 : yoe + era * 400, m, d];
}

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

function daysInMonth(y: number, m: number): number {
  return [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!;
}

function pad(n: number, width: number): string {
  const s = String(Math.abs(n)).padStart(width, '0');
  return n < 0 ? `-${s}` : s;
}

export class VmDateTime {
  /** Microseconds since 1970-01-01T00:00:00. */
  private constructor(readonly micros: bigint) {}

  static of(year: bigint, month: bigint, day: bigint, hour = 0n, minute = 0n, second = 0n, micro = 0n): VmDateTime {
    const y = Number(year);
    const mo = Number(month);
    const d = Number(day);
    if (year < BigInt(MIN_YEAR) || year > BigInt(MAX_YEAR) || mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo)) {
      throw new VmError('invalid datetime date');
    }
    if (hour < 0n || hour > 23n || minute < 0n || minute > 59n || second < 0n || second > 59n || micro < 0n || micro > 999_999n) {
      throw new VmError('invalid datetime time');
    }
    const days = BigInt(daysFromCivil(y, mo, d));
    return new VmDateTime(((days * 86400n + hour * 3600n + minute * 60n + second) * US_PER_SECOND) + micro);
  }

  private static checked(micros: bigint): VmDateTime {
    const days = Number((micros < 0n ? micros - 86_399_999_999n : micros) / 86_400_000_000n);
    const [year] = civilFromDays(days);
    if (year < MIN_YEAR || year > MAX_YEAR) throw new VmError('datetime overflow');
    return new VmDateTime(micros);
  }

  parts(): [number, number, number, number, number, number, number] {
    let days = this.micros / 86_400_000_000n;
    let rest = this.micros % 86_400_000_000n;
    if (rest < 0n) {
      rest += 86_400_000_000n;
      days -= 1n;
    }
    const [y, m, d] = civilFromDays(Number(days));
    const us = Number(rest % US_PER_SECOND);
    const secs = Number(rest / US_PER_SECOND);
    return [y, m, d, Math.floor(secs / 3600), Math.floor((secs % 3600) / 60), secs % 60, us];
  }

  addSeconds(seconds: bigint): VmDateTime {
    return VmDateTime.checked(this.micros + seconds * US_PER_SECOND);
  }

  /** dt − dt: whole seconds, truncated toward zero (chrono `num_seconds`). */
  secondsSince(o: VmDateTime): bigint {
    return (this.micros - o.micros) / US_PER_SECOND;
  }

  compare(o: VmDateTime): number {
    return this.micros < o.micros ? -1 : this.micros > o.micros ? 1 : 0;
  }

  /** `YYYY-MM-DD HH:MM:SS[.ffffff]`. */
  toString(): string {
    const [y, m, d, h, mi, s, us] = this.parts();
    const base = `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)} ${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}`;
    return us === 0 ? base : `${base}.${pad(us, 6)}`;
  }

  /** chrono `NaiveDateTime::parse_from_str` for the common specifiers. */
  static strptime(text: string, format: string): VmDateTime {
    const fail = (): never => {
      throw new VmError('datetime.strptime() failed');
    };
    const f: Record<string, bigint | undefined> = {};
    let i = 0;
    const num = (min: number, max: number, signed = false): bigint => {
      let j = i;
      if (signed && (text[j] === '-' || text[j] === '+')) j++;
      const start = j;
      while (j < text.length && j - start < max && text[j]! >= '0' && text[j]! <= '9') j++;
      if (j - start < min) fail();
      const value = BigInt(text.slice(i, j));
      i = j;
      return value;
    };
    const months = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
    const fullMonths = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
    const spec = (c: string): void => {
      switch (c) {
        case 'Y': f.Y = num(1, 9, true); break;
        case 'm': f.m = num(1, 2); break;
        case 'd': case 'e': while (c === 'e' && text[i] === ' ') i++; f.d = num(1, 2); break;
        case 'H': case 'k': while (c === 'k' && text[i] === ' ') i++; f.H = num(1, 2); break;
        case 'M': f.M = num(1, 2); break;
        case 'S': f.S = num(1, 2); break;
        case 'y': f.y = num(1, 2); break;
        case 'j': f.j = num(1, 3); break;
        case 'f': {
          const start = i;
          const digits = num(1, 9);
          f.us = digits * 10n ** BigInt(9 - (i - start)) / 1000n;
          break;
        }
        case 'b': case 'h': case 'B': {
          const lower = text.slice(i).toLowerCase();
          let idx = fullMonths.findIndex((name) => lower.startsWith(name));
          if (idx >= 0) i += fullMonths[idx]!.length;
          else {
            idx = months.findIndex((name) => lower.startsWith(name));
            if (idx < 0) fail();
            i += 3;
          }
          f.m = BigInt(idx + 1);
          break;
        }
        case 'T': spec('H'); lit(':'); spec('M'); lit(':'); spec('S'); break;
        case 'R': spec('H'); lit(':'); spec('M'); break;
        case 'F': spec('Y'); lit('-'); spec('m'); lit('-'); spec('d'); break;
        case 'D': spec('m'); lit('/'); spec('d'); lit('/'); spec('y'); break;
        case '%': lit('%'); break;
        default: fail();
      }
    };
    const lit = (c: string): void => {
      if (text[i] !== c) fail();
      i++;
    };
    for (let k = 0; k < format.length; k++) {
      const c = format[k]!;
      if (c === '%') {
        let next = format[++k];
        if (next === undefined) fail();
        if (next === '.' && format[k + 1] === 'f') {
          k++;
          if (text[i] === '.') {
            i++;
            spec('f');
          }
          continue;
        }
        spec(next!);
      } else if (/\s/.test(c)) {
        while (i < text.length && /\s/.test(text[i]!)) i++;
      } else lit(c);
    }
    if (i !== text.length) fail();
    let year = f.Y;
    if (year === undefined && f.y !== undefined) year = f.y < 70n ? 2000n + f.y : 1900n + f.y;
    if (year === undefined || f.H === undefined || f.M === undefined) fail();
    let month = f.m;
    let day = f.d;
    if (f.j !== undefined && (month === undefined || day === undefined)) {
      const start = daysFromCivil(Number(year), 1, 1) + Number(f.j) - 1;
      const [yy, mm, dd] = civilFromDays(start);
      if (BigInt(yy) !== year) fail();
      month = BigInt(mm);
      day = BigInt(dd);
    }
    if (month === undefined || day === undefined) fail();
    try {
      return VmDateTime.of(year!, month!, day!, f.H!, f.M!, f.S ?? 0n, f.us ?? 0n);
    } catch {
      return fail();
    }
  }
}

function checkedI64(value: bigint): bigint {
  if (value < I64_MIN || value > I64_MAX) throw new VmError('timedelta overflow');
  return value;
}

export class VmTimeDelta {
  private constructor(readonly seconds: bigint) {}

  static fromSeconds(seconds: bigint): VmTimeDelta {
    return new VmTimeDelta(checkedI64(seconds));
  }

  /** `timedelta(weeks, days, hours, minutes, seconds)` — the chain's positional order. */
  static of(weeks: bigint, days: bigint, hours: bigint, minutes: bigint, seconds: bigint): VmTimeDelta {
    const w = checkedI64(weeks * 604_800n);
    const d = checkedI64(days * 86_400n);
    const h = checkedI64(hours * 3_600n);
    const m = checkedI64(minutes * 60n);
    return new VmTimeDelta(checkedI64(checkedI64(checkedI64(checkedI64(w + d) + h) + m) + seconds));
  }

  add(o: VmTimeDelta): VmTimeDelta {
    return new VmTimeDelta(checkedI64(this.seconds + o.seconds));
  }

  sub(o: VmTimeDelta): VmTimeDelta {
    return new VmTimeDelta(checkedI64(this.seconds - o.seconds));
  }

  mul(n: bigint): VmTimeDelta {
    return new VmTimeDelta(checkedI64(this.seconds * n));
  }

  compare(o: VmTimeDelta): number {
    return this.seconds < o.seconds ? -1 : this.seconds > o.seconds ? 1 : 0;
  }

  /** `[-][D day[s], ]H:MM:SS` of the absolute value. */
  toString(): string {
    const negative = this.seconds < 0n;
    let rest = negative ? -this.seconds : this.seconds;
    const days = rest / 86_400n;
    rest %= 86_400n;
    const hours = rest / 3_600n;
    rest %= 3_600n;
    const minutes = rest / 60n;
    const seconds = rest % 60n;
    const prefix = negative ? '-' : '';
    const clock = `${hours}:${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`;
    if (days === 0n) return prefix + clock;
    return `${prefix}${days} ${days === 1n ? 'day' : 'days'}, ${clock}`;
  }
}
