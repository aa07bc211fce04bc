import { Decimal } from 'decimal.js';

/**
 * CometBFT's event query language (`libs/pubsub/query/syntax`, v0.38): conditions joined by
 * `AND`, each `<tag> <op> <argument>` — `=` takes a number, `'string'`, `TIME <RFC3339>` or
 * `DATE <yyyy-mm-dd>`; `<`, `<=`, `>`, `>=` take a number, time or date; `CONTAINS` a string;
 * `<tag> EXISTS` none. Numbers are unsigned decimals (`5`, `3.25`), strings have no escapes.
 * The scanner and its error texts follow `syntax/scanner.go` and `parser.go`.
 *
 * `matches` is the pubsub matcher subscriptions use (`query.go`): each condition must hold for
 * some value of its tag (across events); numeric comparison reads the leading number of the
 * value (`8atom` is 8), as CometBFT does. `tx_search`/`block_search` use the stricter kv-index
 * semantics of `event-index.ts` instead.
 */
export type EventMap = Record<string, string[]>;

export type Op = '=' | '<' | '<=' | '>' | '>=' | 'CONTAINS' | 'EXISTS';
export type ArgType = 'string' | 'number' | 'time' | 'date';

export interface Condition {
  tag: string;
  op: Op;
  arg?: { type: ArgType; text: string };
}

export class EventQueryError extends Error {
  constructor(query: string, reason: string) {
    super(`failed to parse query ${JSON.stringify(query)}: ${reason}`);
    this.name = 'EventQueryError';
  }
}

type Token = 'tag' | 'string' | 'number' | 'timestamp' | 'datestamp' | 'AND operator' | 'CONTAINS operator' | 'EXISTS operator'
  | '= operator' | '< operator' | '<= operator' | '> operator' | '>= operator' | 'EOF';

const OPS: Partial<Record<Token, Op>> = {
  '= operator': '=', '< operator': '<', '<= operator': '<=', '> operator': '>', '>= operator': '>=',
  'CONTAINS operator': 'CONTAINS', 'EXISTS operator': 'EXISTS',
};
const ARG_TYPES: Partial<Record<Token, ArgType>> = { string: 'string', number: 'number', timestamp: 'time', datestamp: 'date' };

export class EventQuery {
  private constructor(readonly text: string, readonly conditions: readonly Condition[]) {}

  static parse(text: string): EventQuery {
    const scanner = new Scanner(text);
    const conditions: Condition[] = [];
    const fail = (reason: string): never => { throw new EventQueryError(text, reason); };
    const require = (...wanted: Token[]): string => {
      const tok = scanner.next();
      if (tok === 'EOF') fail(`offset ${scanner.pos}: EOF`);
      if (!wanted.includes(tok)) fail(`offset ${scanner.pos}: got ${tok}, wanted ${label(wanted)}`);
      return scanner.text;
    };
    for (;;) {
      const tag = require('tag');
      require('<= operator', '>= operator', '< operator', '> operator', '= operator', 'CONTAINS operator', 'EXISTS operator');
      const op = OPS[scanner.token]!;
      if (op === 'EXISTS') {
        conditions.push({ tag, op });
      } else {
        const wanted: Token[] = op === '=' ? ['number', 'timestamp', 'datestamp', 'string'] : op === 'CONTAINS' ? ['string'] : ['number', 'timestamp', 'datestamp'];
        const argText = require(...wanted);
        conditions.push({ tag, op, arg: { type: ARG_TYPES[scanner.token]!, text: argText } });
      }
      const tok = scanner.next();
      if (tok === 'EOF') break;
      if (tok !== 'AND operator') fail(`offset ${scanner.pos}: got ${tok}, want AND operator`);
    }
    return new EventQuery(text, conditions);
  }

  /** Pubsub matching: every condition holds for at least one value of its tag. */
  matches(events: EventMap): boolean {
    return this.conditions.every((c) => {
      const values = events[c.tag];
      if (!values || values.length === 0) return false;
      return values.some((v) => conditionHolds(c, v));
    });
  }
}

/** Whether `value` satisfies `c` under pubsub rules (query.go opTypeMap). */
export function conditionHolds(c: Condition, value: string): boolean {
  if (c.op === 'EXISTS') return true;
  const arg = c.arg!;
  if (arg.type === 'string') return c.op === 'CONTAINS' ? value.includes(arg.text) : value === arg.text;
  if (arg.type === 'number') {
    const v = leadingNumber(value);
    return v !== undefined && compareHolds(c.op, v.cmp(new Decimal(arg.text)));
  }
  const bound = argTime(arg);
  const t = arg.type === 'date' ? parseDate(value) : parseTime(value);
  return t !== undefined && bound !== undefined && compareHolds(c.op, Math.sign(t - bound));
}

export function compareHolds(op: Op, cmp: number): boolean {
  switch (op) {
    case '=': return cmp === 0;
    case '<': return cmp < 0;
    case '<=': return cmp <= 0;
    case '>': return cmp > 0;
    case '>=': return cmp >= 0;
    default: return false;
  }
}

/** query.go parseNumber: the value's leading `\d+(\.\d+)?` (so "8atom" is 8), or undefined. */
function leadingNumber(value: string): Decimal | undefined {
  const m = /^\d+(\.\d+)?/.exec(value);
  return m ? new Decimal(m[0]) : undefined;
}

/** Milliseconds of a TIME/DATE argument. */
export function argTime(arg: { type: ArgType; text: string }): number | undefined {
  return arg.type === 'date' ? parseDate(arg.text) : parseTime(arg.text);
}

function parseDate(s: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return undefined;
  const t = Date.parse(`${s}T00:00:00Z`);
  return Number.isNaN(t) ? undefined : t;
}

function parseTime(s: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?([-+]\d{2}:\d{2}|Z)$/.test(s)) return undefined;
  const t = Date.parse(s);
  return Number.isNaN(t) ? undefined : t;
}

function label(tokens: Token[]): string {
  return tokens.length === 1 ? tokens[0]! : `${tokens.slice(0, -1).join(', ')} or ${tokens[tokens.length - 1]}`;
}

const isDigit = (ch: string) => ch >= '0' && ch <= '9';
const isLetterOrDigit = (ch: string) => /^[\p{L}\p{Nd}]$/u.test(ch);
const isTagRune = (ch: string) => ch === '.' || ch === '_' || ch === '-' || isLetterOrDigit(ch);
const isFirstTagRune = (ch: string) => ch === '_' || isLetterOrDigit(ch);

/** syntax/scanner.go: one token per `next()`; throws EventQueryError with its texts. */
class Scanner {
  token: Token = 'EOF';
  text = '';
  pos = 0;
  private end = 0;
  private readonly chars: string[];

  constructor(private readonly input: string) {
    this.chars = [...input];
  }

  next(): Token {
    this.text = '';
    for (;;) {
      this.pos = this.end;
      const ch = this.chars[this.end];
      if (ch === undefined) return (this.token = 'EOF');
      this.end++;
      if (/^\s$/u.test(ch)) continue;
      if (isDigit(ch)) return this.number(ch);
      if (isFirstTagRune(ch)) return this.tagLike(ch);
      if (ch === "'") return this.string();
      if (ch === '<' || ch === '>' || ch === '=') return this.compare(ch);
      throw new EventQueryError(this.input, `offset ${this.pos}: invalid input ${ch} at offset ${this.end}`);
    }
  }

  private number(first: string): Token {
    this.text = first + this.while(isDigit);
    if (this.chars[this.end] === '.') {
      this.end++;
      this.text += '.' + this.while(isDigit);
    }
    return (this.token = 'number');
  }

  private string(): Token {
    const close = this.chars.indexOf("'", this.end);
    if (close < 0) throw new EventQueryError(this.input, `offset ${this.pos}: unexpected EOF`);
    this.text = this.chars.slice(this.end, close).join('');
    this.end = close + 1;
    return (this.token = 'string');
  }

  private compare(first: string): Token {
    this.text = first;
    if (first === '=') return (this.token = '= operator');
    if (this.chars[this.end] === '=') {
      this.end++;
      this.text += '=';
      return (this.token = first === '<' ? '<= operator' : '>= operator');
    }
    return (this.token = first === '<' ? '< operator' : '> operator');
  }

  private tagLike(first: string): Token {
    this.text = first + this.while(isTagRune);
    const spaceFollows = this.chars[this.end] === ' ';
    if ((this.text === 'TIME' || this.text === 'DATE') && spaceFollows) {
      this.end++;
      const isTime = this.text === 'TIME';
      this.text = this.while(isTime ? (ch) => isDigit(ch) || '-T:+Z'.includes(ch) : (ch) => isDigit(ch) || ch === '-');
      const t = isTime ? parseTime(this.text) : parseDate(this.text);
      if (t === undefined) throw new EventQueryError(this.input, `offset ${this.pos}: invalid ${isTime ? 'TIME' : 'DATE'} value ${JSON.stringify(this.text)}`);
      const year = new Date(t).getUTCFullYear();
      if (year < 1900 || year > 2999) throw new EventQueryError(this.input, `offset ${this.pos}: ${isTime ? 'timestamp' : 'datestamp'} year ${year} out of range`);
      return (this.token = isTime ? 'timestamp' : 'datestamp');
    }
    if (this.text === 'AND') return (this.token = 'AND operator');
    if (this.text === 'EXISTS') return (this.token = 'EXISTS operator');
    if (this.text === 'CONTAINS') return (this.token = 'CONTAINS operator');
    return (this.token = 'tag');
  }

  private while(ok: (ch: string) => boolean): string {
    const start = this.end;
    while (this.end < this.chars.length && ok(this.chars[this.end]!)) this.end++;
    return this.chars.slice(start, this.end).join('');
  }
}
