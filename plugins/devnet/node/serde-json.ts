/**
 * A JSON reader that accepts and refuses exactly what `serde_json::from_str::<Value>` (1.0, default
 * features) does, with its error texts ("expected `:` at line 1 column 6"), because the
 * production node's native transaction validator (xian-fastpath-core `lib.rs`) decodes with it
 * and CheckTx reports those texts verbatim. Works on UTF-8 bytes: serde counts columns in bytes.
 *
 * Numbers keep serde's three kinds: non-negative integers that fit u64 (number/bigint),
 * negative integers that fit i64, and everything else — fractions, exponents, `-0`, integers
 * beyond those ranges — as a SerdeFloat. Objects are null-prototype records (`__proto__` is
 * data); a duplicate key keeps its last value (serde inserts into a map).
 */

export class SerdeFloat {
  constructor(readonly value: number) {}
}

export type SerdeValue = null | boolean | string | number | bigint | SerdeFloat | SerdeValue[] | SerdeObject;
export interface SerdeObject { [key: string]: SerdeValue }

export class SerdeJsonError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SerdeJsonError';
  }
}

const RECURSION_LIMIT = 128;
const MAX_U64 = 2n ** 64n - 1n;
const I64_MIN_MAGNITUDE = 2n ** 63n;
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const utf8 = new TextDecoder('utf-8');

export function parseSerdeJson(bytes: Uint8Array): SerdeValue {
  return new SerdeReader(bytes).document();
}

class SerdeReader {
  private i = 0;
  private remainingDepth = RECURSION_LIMIT;

  /** The same bytes as a Buffer view: ASCII runs decode without a subarray per string. */
  private readonly text: Buffer;

  constructor(private readonly b: Uint8Array) {
    this.text = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  }

  /** The bytes `start..end` as text (ASCII directly; otherwise UTF-8, which CheckTx has already validated). */
  private slice(start: number, end: number, ascii: boolean): string {
    return ascii ? this.text.toString('latin1', start, end) : utf8.decode(this.b.subarray(start, end));
  }

  document(): SerdeValue {
    const value = this.value();
    this.ws();
    if (this.i < this.b.length) this.peekError('trailing characters');
    return value;
  }

  /** serde's `peek_error`: the position just after the byte being looked at. */
  private peekError(code: string): never {
    throw this.errorAt(Math.min(this.b.length, this.i + 1), code);
  }

  /** serde's `error`: the position of the read cursor. */
  private error(code: string): never {
    throw this.errorAt(this.i, code);
  }

  private errorAt(index: number, code: string): SerdeJsonError {
    let line = 1;
    let column = 0;
    for (let k = 0; k < index; k++) {
      if (this.b[k] === 0x0a) { line++; column = 0; } else column++;
    }
    return new SerdeJsonError(`${code} at line ${line} column ${column}`);
  }

  private ws(): number | undefined {
    for (;;) {
      const c = this.b[this.i];
      if (c !== 0x20 && c !== 0x0a && c !== 0x09 && c !== 0x0d) return c;
      this.i++;
    }
  }

  private value(): SerdeValue {
    const c = this.ws();
    if (c === undefined) this.error('EOF while parsing a value');
    switch (c) {
      case 0x6e: return this.ident('null', null);
      case 0x74: return this.ident('true', true);
      case 0x66: return this.ident('false', false);
      case 0x22: this.i++; return this.string();
      case 0x5b: return this.nested(false);
      case 0x7b: return this.nested(true);
      case 0x2d: this.i++; return this.number(false);
      default:
        if (c >= 0x30 && c <= 0x39) return this.number(true);
        return this.peekError('expected value');
    }
  }

  private nested(object: boolean): SerdeValue {
    if (--this.remainingDepth === 0) this.peekError('recursion limit exceeded');
    this.i++;
    const v = object ? this.object() : this.array();
    this.remainingDepth++;
    return v;
  }

  private ident<T extends null | boolean>(word: string, value: T): T {
    this.i++;
    for (let k = 1; k < word.length; k++) {
      const c = this.b[this.i];
      if (c === undefined) this.error('EOF while parsing a value');
      this.i++;
      if (c !== word.charCodeAt(k)) this.error('expected ident');
    }
    return value;
  }

  private number(positive: boolean): SerdeValue {
    const start = this.i;
    const first = this.b[this.i];
    if (first === undefined) this.error('EOF while parsing a value');
    this.i++;
    if (first === 0x30) {
      if (isDigit(this.b[this.i])) this.peekError('invalid number');
    } else if (!isDigit(first)) {
      this.error('invalid number');
    } else {
      while (isDigit(this.b[this.i])) this.i++;
    }
    let float = false;
    if (this.b[this.i] === 0x2e) {
      this.i++;
      if (!isDigit(this.b[this.i])) this.peekError(this.b[this.i] === undefined ? 'EOF while parsing a value' : 'invalid number');
      while (isDigit(this.b[this.i])) this.i++;
      float = true;
    }
    if (this.b[this.i] === 0x65 || this.b[this.i] === 0x45) {
      this.i++;
      if (this.b[this.i] === 0x2b || this.b[this.i] === 0x2d) this.i++;
      const d = this.b[this.i];
      if (!isDigit(d)) {
        this.i++;
        if (d === undefined) this.error('EOF while parsing a value');
        this.error('invalid number');
      }
      while (isDigit(this.b[this.i])) this.i++;
      float = true;
    }
    const digits = Buffer.from(this.b.buffer, this.b.byteOffset + start, this.i - start).toString('latin1');
    const literal = (positive ? '' : '-') + digits;
    // More than 20 digits cannot fit u64/i64: serde goes straight to f64 (no quadratic BigInt parse).
    if (!float && digits.length <= 20) {
      const magnitude = BigInt(digits);
      if (positive && magnitude <= MAX_U64) return magnitude <= MAX_SAFE ? Number(magnitude) : magnitude;
      // `-0` becomes a float in serde, as does anything beyond i64 below zero.
      if (!positive && magnitude !== 0n && magnitude <= I64_MIN_MAGNITUDE) return magnitude <= MAX_SAFE ? -Number(magnitude) : -magnitude;
    }
    const f = Number(literal);
    if (!Number.isFinite(f)) this.error('number out of range');
    return new SerdeFloat(f);
  }

  /** After the opening quote. */
  private string(): string {
    let out = '';
    let chunk = this.i;
    let ascii = true;
    for (;;) {
      const c = this.b[this.i];
      if (c === undefined) this.error('EOF while parsing a string');
      if (c === 0x22) {
        out += this.slice(chunk, this.i, ascii);
        this.i++;
        return out;
      }
      if (c < 0x20) {
        this.i++;
        this.error('control character (\\u0000-\\u001F) found while parsing a string');
      }
      if (c !== 0x5c) {
        if (c >= 0x80) ascii = false;
        this.i++;
        continue;
      }
      out += this.slice(chunk, this.i, ascii);
      this.i++;
      out += this.escape();
      chunk = this.i;
      ascii = true;
    }
  }

  /** After the backslash. */
  private escape(): string {
    const e = this.b[this.i];
    if (e === undefined) this.error('EOF while parsing a string');
    this.i++;
    switch (e) {
      case 0x22: return '"';
      case 0x5c: return '\\';
      case 0x2f: return '/';
      case 0x62: return '\b';
      case 0x66: return '\f';
      case 0x6e: return '\n';
      case 0x72: return '\r';
      case 0x74: return '\t';
      case 0x75: break;
      default: this.error('invalid escape');
    }
    const n = this.hex4();
    if (n >= 0xdc00 && n <= 0xdfff) this.error('lone leading surrogate in hex escape');
    if (n < 0xd800 || n > 0xdbff) return String.fromCharCode(n);
    // serde's parse_unicode_escape: a leading surrogate must be followed by `\u` and a trailing one.
    for (const expected of [0x5c, 0x75]) {
      const c = this.b[this.i];
      if (c === undefined) this.error('EOF while parsing a string');
      this.i++;
      if (c !== expected) this.error('unexpected end of hex escape');
    }
    const low = this.hex4();
    if (low < 0xdc00 || low > 0xdfff) this.error('lone leading surrogate in hex escape');
    return String.fromCharCode(n, low);
  }

  private hex4(): number {
    if (this.i + 4 > this.b.length) {
      this.i = this.b.length;
      this.error('EOF while parsing a string');
    }
    let n = 0;
    let valid = true;
    for (let k = 0; k < 4; k++) {
      const d = hexDigit(this.b[this.i + k]!);
      valid &&= d >= 0;
      n = n * 16 + d;
    }
    this.i += 4;
    if (!valid) this.error('invalid escape');
    return n;
  }

  private array(): SerdeValue[] {
    const out: SerdeValue[] = [];
    let first = true;
    for (;;) {
      let c = this.ws();
      if (c === 0x5d) { this.i++; return out; }
      if (c === 0x2c && !first) {
        this.i++;
        c = this.ws();
      } else if (c === undefined) {
        this.peekError('EOF while parsing a list');
      } else if (!first) {
        this.peekError('expected `,` or `]`');
      }
      first = false;
      if (c === 0x5d) this.peekError('trailing comma');
      if (c === undefined) this.peekError('EOF while parsing a value');
      out.push(this.value());
    }
  }

  private object(): SerdeObject {
    const out = Object.create(null) as SerdeObject;
    let first = true;
    for (;;) {
      let c = this.ws();
      if (c === 0x7d) { this.i++; return out; }
      if (c === 0x2c && !first) {
        this.i++;
        c = this.ws();
      } else if (c === undefined) {
        this.peekError('EOF while parsing an object');
      } else if (!first) {
        this.peekError('expected `,` or `}`');
      }
      first = false;
      if (c === 0x7d) this.peekError('trailing comma');
      if (c === undefined) this.peekError('EOF while parsing a value');
      if (c !== 0x22) this.peekError('key must be a string');
      this.i++;
      const key = this.string();
      const colon = this.ws();
      if (colon === undefined) this.peekError('EOF while parsing an object');
      if (colon !== 0x3a) this.peekError('expected `:`');
      this.i++;
      out[key] = this.value();
    }
  }
}

function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= 0x30 && c <= 0x39;
}

function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
}

/** serde_json `Value` equality: integers and floats never compare equal to each other. */
export function serdeEqual(a: SerdeValue, b: SerdeValue): boolean {
  if (a instanceof SerdeFloat || b instanceof SerdeFloat) {
    return a instanceof SerdeFloat && b instanceof SerdeFloat && a.value === b.value;
  }
  if (typeof a === 'number' || typeof a === 'bigint') return (typeof b === 'number' || typeof b === 'bigint') && BigInt(a) === BigInt(b);
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, k) => serdeEqual(v, b[k]!));
  if (a !== null && typeof a === 'object') {
    if (b === null || typeof b !== 'object' || Array.isArray(b)) return false;
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && serdeEqual(a[k]!, b[k]!));
  }
  return a === b;
}
