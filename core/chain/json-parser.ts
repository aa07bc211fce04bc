import type { JsonObject, JsonValue } from './canonical-json.js';

/**
 * A JSON reader that behaves like the node's `json.loads`: integers stay exact (bigint when
 * beyond the JS safe range, since ABCI JSON and transactions carry integers up to 2^64),
 * objects are null-prototype records (so `__proto__` is data), duplicate keys keep the last
 * value, and syntax errors carry Python's JSONDecodeError text, which the devnet reports.
 */

/** Python `json.JSONDecodeError` text: "Expecting value: line 1 column 1 (char 0)". */
export class JsonSyntaxError extends SyntaxError {
  constructor(message: string, readonly pos: number) {
    super(message);
    this.name = 'JsonSyntaxError';
  }
}

export type JsonPathSegment = string | number;

/** The first value that makes the text non-canonical, in document order (as the node meets it). */
export interface CanonicalViolation {
  path: JsonPathSegment[];
  reason: string;
  /** The node's message for it. */
  message: string;
}

export interface ParsedJson {
  value: JsonValue;
  violation?: CanonicalViolation;
}

const NOT_CANONICAL = 'Transaction bytes are not canonical';
const MAX_CANONICAL_DEPTH = 128; // the node's MAX_CANONICAL_JSON_DEPTH
const MAX_NESTING = 1000; // keeps hostile input off the JS stack; Python's own limit is of this order
const MAX_INT_DIGITS = 4300; // Python's int-from-text limit
const MIN_I64 = -(2n ** 63n);
const MAX_U64 = 2n ** 64n - 1n;
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/y;
const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/** Lenient exact parse (floats become JS numbers); for node and RPC output, not for transaction bytes. */
export function parseJsonExact(text: string): JsonValue {
  return new Parser(text, false).document().value;
}

/**
 * Parses and, with `canonical`, records the first value the node's canonical form refuses
 * (floats, integers outside -(2^63)..2^64-1, duplicate keys, nesting beyond 128).
 */
export function parseJsonText(text: string, canonical: boolean): ParsedJson {
  return new Parser(text, canonical).document();
}

class Parser {
  private i = 0;
  private violation: CanonicalViolation | undefined;
  private readonly path: JsonPathSegment[] = [];

  constructor(private readonly text: string, private readonly canonical: boolean) {}

  document(): ParsedJson {
    if (this.text.charCodeAt(0) === 0xfeff) this.fail('Unexpected UTF-8 BOM (decode using utf-8-sig)', 0);
    this.ws();
    const value = this.value(0);
    this.ws();
    if (this.i < this.text.length) this.fail('Extra data', this.i);
    return this.violation ? { value, violation: this.violation } : { value };
  }

  private fail(message: string, pos: number): never {
    throw new JsonSyntaxError(`${message}: ${lineColumn(this.text, pos)}`, pos);
  }

  private note(reason: string, message = NOT_CANONICAL): void {
    if (this.canonical && !this.violation) this.violation = { path: [...this.path], reason, message };
  }

  private ws(): void {
    const t = this.text;
    while (this.i < t.length) {
      const c = t.charCodeAt(this.i);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return;
      this.i++;
    }
  }

  private value(depth: number): JsonValue {
    if (depth > MAX_CANONICAL_DEPTH) this.note(`nested deeper than ${MAX_CANONICAL_DEPTH} levels`, 'recursion limit exceeded');
    if (depth > MAX_NESTING) throw new JsonSyntaxError('maximum recursion depth exceeded while decoding a JSON document', this.i);
    const t = this.text;
    const c = t[this.i];
    if (c === '"') return this.string();
    if (c === '{') return this.object(depth);
    if (c === '[') return this.array(depth);
    if (t.startsWith('null', this.i)) return this.literal(4, null);
    if (t.startsWith('true', this.i)) return this.literal(4, true);
    if (t.startsWith('false', this.i)) return this.literal(5, false);
    if (t.startsWith('NaN', this.i)) return this.float(3, NaN);
    if (t.startsWith('Infinity', this.i)) return this.float(8, Infinity);
    if (t.startsWith('-Infinity', this.i)) return this.float(9, -Infinity);
    return this.number();
  }

  private literal<T extends JsonValue>(length: number, value: T): T {
    this.i += length;
    return value;
  }

  private float(length: number, value: number): number {
    this.note(`float ${this.text.slice(this.i, this.i + length)} (decimals travel as {"__fixed__":"…"})`);
    this.i += length;
    return value;
  }

  private number(): JsonValue {
    NUMBER.lastIndex = this.i;
    const m = NUMBER.exec(this.text);
    if (!m) this.fail('Expecting value', this.i);
    const literal = m[0];
    if (m[1] !== undefined || m[2] !== undefined) return this.float(literal.length, Number(literal));
    const digits = literal.length - (literal[0] === '-' ? 1 : 0);
    if (digits > MAX_INT_DIGITS) {
      throw new JsonSyntaxError(`Exceeds the limit (${MAX_INT_DIGITS} digits) for integer string conversion: value has ${digits} digits`, this.i);
    }
    this.i += literal.length;
    const big = BigInt(literal);
    if (big < MIN_I64 || big > MAX_U64) this.note(`integer ${literal} outside -(2^63)..2^64-1 (wrap it as {"__big_int__":"…"})`);
    return big >= MIN_SAFE && big <= MAX_SAFE ? Number(big) : big;
  }

  private string(): string {
    const t = this.text;
    const start = this.i;
    let out = '';
    let j = start + 1;
    let chunk = j;
    for (;;) {
      if (j >= t.length) this.fail('Unterminated string starting at', start);
      const c = t.charCodeAt(j);
      if (c === 0x22) {
        this.i = j + 1;
        return out + t.slice(chunk, j);
      }
      if (c < 0x20) this.fail('Invalid control character at', j);
      if (c !== 0x5c) { j++; continue; }
      out += t.slice(chunk, j);
      if (j + 1 >= t.length) this.fail('Unterminated string starting at', start);
      const e = t[j + 1]!;
      if (e === 'u') {
        const hex = t.slice(j + 2, j + 6);
        if (!/^[0-9a-fA-F]{4}$/.test(hex)) this.fail('Invalid \\uXXXX escape', j + 1);
        // Pairs need no joining: two UTF-16 code units already make the astral character.
        out += String.fromCharCode(parseInt(hex, 16));
        j += 6;
      } else {
        const s = ESCAPES[e];
        if (s === undefined) this.fail('Invalid \\escape', j);
        out += s;
        j += 2;
      }
      chunk = j;
    }
  }

  private object(depth: number): JsonObject {
    const t = this.text;
    const out = Object.create(null) as JsonObject;
    this.i++;
    this.ws();
    if (t[this.i] === '}') { this.i++; return out; }
    for (;;) {
      if (t[this.i] !== '"') this.fail('Expecting property name enclosed in double quotes', this.i);
      const key = this.string();
      this.ws();
      if (t[this.i] !== ':') this.fail("Expecting ':' delimiter", this.i);
      this.i++;
      this.ws();
      this.path.push(key);
      if (Object.prototype.hasOwnProperty.call(out, key)) this.note(`duplicate key ${JSON.stringify(key)}`);
      out[key] = this.value(depth + 1);
      this.path.pop();
      if (this.closes('}')) return out;
    }
  }

  private array(depth: number): JsonValue[] {
    const t = this.text;
    const out: JsonValue[] = [];
    this.i++;
    this.ws();
    if (t[this.i] === ']') { this.i++; return out; }
    for (;;) {
      this.path.push(out.length);
      out.push(this.value(depth + 1));
      this.path.pop();
      if (this.closes(']')) return out;
    }
  }

  /** After a member: true at the closing bracket, false past a comma; anything else fails. */
  private closes(close: '}' | ']'): boolean {
    this.ws();
    const c = this.text[this.i];
    this.i++;
    if (c === close) return true;
    if (c !== ',') this.fail("Expecting ',' delimiter", this.i - 1);
    this.ws();
    return false;
  }
}

/** Python reports positions in code points, lines and columns from 1. */
function lineColumn(text: string, pos: number): string {
  const before = text.slice(0, pos);
  const cp = (s: string) => Array.from(s).length;
  const line = before.split('\n').length;
  const lastNl = before.lastIndexOf('\n');
  const column = lastNl < 0 ? cp(before) + 1 : cp(before.slice(lastNl + 1)) + 1;
  return `line ${line} column ${column} (char ${cp(before)})`;
}
