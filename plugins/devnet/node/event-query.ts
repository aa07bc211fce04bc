/**
 * CometBFT's event query language (`libs/pubsub/query`), the subset subscriptions and
 * `tx_search` use: conditions joined by `AND`, each `<composite key> <op> <operand>` with ops
 * `=`, `<`, `<=`, `>`, `>=`, `CONTAINS`, or `<key> EXISTS`; operands are single-quoted strings
 * or numbers. A query matches an event map (`type.attr` → values) when every condition holds
 * for at least one value of its key.
 */
export type EventMap = Record<string, string[]>;

type Op = '=' | '<' | '<=' | '>' | '>=' | 'CONTAINS' | 'EXISTS';

interface Condition {
  key: string;
  op: Op;
  operand?: string | number;
}

export class EventQueryError extends Error {
  constructor(query: string, reason: string) {
    super(`failed to parse query ${JSON.stringify(query)}: ${reason}`);
    this.name = 'EventQueryError';
  }
}

export class EventQuery {
  private constructor(readonly text: string, readonly conditions: readonly Condition[]) {}

  static parse(text: string): EventQuery {
    const conditions: Condition[] = [];
    let rest = text.trim();
    if (!rest) throw new EventQueryError(text, 'empty query');
    for (;;) {
      const m = /^([A-Za-z0-9_.\-]+)\s*(<=|>=|=|<|>|CONTAINS\b|EXISTS\b)\s*/.exec(rest);
      if (!m) throw new EventQueryError(text, `unexpected input at ${JSON.stringify(rest.slice(0, 20))}`);
      const key = m[1]!;
      const op = m[2] as Op;
      rest = rest.slice(m[0].length);
      if (op === 'EXISTS') {
        conditions.push({ key, op });
      } else {
        const str = /^'([^']*)'\s*/.exec(rest);
        const num = /^(-?[0-9]+(?:\.[0-9]+)?)\s*/.exec(rest);
        const datetime = /^(?:TIME|DATE)\s+(\S+)\s*/.exec(rest);
        if (str) { conditions.push({ key, op, operand: str[1]! }); rest = rest.slice(str[0].length); }
        else if (num) { conditions.push({ key, op, operand: Number(num[1]) }); rest = rest.slice(num[0].length); }
        else if (datetime) { conditions.push({ key, op, operand: datetime[1]! }); rest = rest.slice(datetime[0].length); }
        else throw new EventQueryError(text, `missing operand for ${key} ${op}`);
      }
      if (!rest) break;
      const and = /^AND\s+/.exec(rest);
      if (!and) throw new EventQueryError(text, `expected AND at ${JSON.stringify(rest.slice(0, 20))}`);
      rest = rest.slice(and[0].length);
    }
    return new EventQuery(text, conditions);
  }

  matches(events: EventMap): boolean {
    return this.conditions.every((c) => {
      const values = events[c.key];
      if (!values || values.length === 0) return false;
      if (c.op === 'EXISTS') return true;
      return values.some((v) => holds(c, v));
    });
  }

  /** The `tx.height` / `tx.hash` equality operands, which let `tx_search` avoid a full scan. */
  equality(key: string): string | number | undefined {
    return this.conditions.find((c) => c.key === key && c.op === '=')?.operand;
  }

  /** Bounds on `tx.height` for range scans. */
  heightRange(): { min: number; max: number } {
    let min = 1;
    let max = Number.MAX_SAFE_INTEGER;
    for (const c of this.conditions) {
      if (c.key !== 'tx.height' && c.key !== 'block.height') continue;
      const n = Number(c.operand);
      if (!Number.isFinite(n)) continue;
      if (c.op === '=') { min = Math.max(min, n); max = Math.min(max, n); }
      else if (c.op === '>') min = Math.max(min, Math.floor(n) + 1);
      else if (c.op === '>=') min = Math.max(min, Math.ceil(n));
      else if (c.op === '<') max = Math.min(max, Math.ceil(n) - 1);
      else if (c.op === '<=') max = Math.min(max, Math.floor(n));
    }
    return { min, max };
  }
}

function holds(c: Condition, value: string): boolean {
  const operand = c.operand!;
  if (c.op === 'CONTAINS') return value.includes(String(operand));
  if (typeof operand === 'number') {
    const v = Number(value);
    if (!Number.isFinite(v)) return false;
    return compare(c.op, v - operand);
  }
  if (c.op === '=') return value === operand;
  return compare(c.op, value < operand ? -1 : value > operand ? 1 : 0);
}

function compare(op: Op, diff: number): boolean {
  switch (op) {
    case '=': return diff === 0;
    case '<': return diff < 0;
    case '<=': return diff <= 0;
    case '>': return diff > 0;
    case '>=': return diff >= 0;
    default: return false;
  }
}
