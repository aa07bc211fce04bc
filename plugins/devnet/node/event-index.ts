import { Decimal } from 'decimal.js';
import type { AbciEvent } from 'chainhost/chain';
import { argTime, type Condition } from './event-query.js';

/**
 * An inverted index of indexed event attributes, as CometBFT's kv indexer keeps one
 * (`state/txindex/kv`, `state/indexer/block/kv`): for every composite key `<type>.<attr>` the
 * events carrying it, by exact value. A "document" is a transaction (its ordinal in the
 * chain) or a block (its height); an event is `doc * EVENT_SLOTS + its position` among the
 * document's events, so postings grow in commit order and every list is sorted for free.
 *
 * Search follows the kv indexer of CometBFT 0.38: `=` compares the value's text, ranges
 * compare numerically (exact decimals; non-numbers never match; TIME/DATE bounds match
 * nothing, as event times are not implemented there), `CONTAINS` is a substring test,
 * `EXISTS` any value — and all conditions of a query must hold **within one event** (0.38
 * stores the event sequence with every key). Work is metered by a `SearchBudget`: lists are
 * sliced to the document range by binary search and intersected from the shortest, so a
 * selective condition costs its own matches, never the chain's length.
 */
export const EVENT_SLOTS = 2 ** 20;

/** A query that would visit more index entries than one request may. */
export class SearchTooBroadError extends Error {
  constructor(limit: number) {
    super(`query is too broad: answering it would visit more than ${limit} index entries; `
      + 'narrow it with a tx.height/block.height range or an exact (=) event condition');
    this.name = 'SearchTooBroadError';
  }
}

/** Counts the index entries one request visits; work that would pass `limit` is refused before it is done. */
export class SearchBudget {
  used = 0;
  constructor(readonly limit: number) {}

  spend(n: number): void {
    if (this.used + n > this.limit) throw new SearchTooBroadError(this.limit);
    this.used += n;
  }
}

interface AttributeIndex {
  /** Every event carrying the key (EXISTS). */
  all: number[];
  /** Exact value → events (=, and the values CONTAINS and ranges test). */
  values: Map<string, number[]>;
  /** Parsed numeric values, filled on first use by a range. */
  numbers: Map<string, Decimal | null>;
}

/** A sorted slice of a posting list. */
interface Slice {
  list: number[];
  from: number;
  to: number;
}

export class EventIndex {
  private readonly keys = new Map<string, AttributeIndex>();
  private entries = 0;

  /** @param reserved composite keys the node indexes itself (`tx.hash`, `tx.height`): events may not claim them. */
  constructor(private readonly reserved: ReadonlySet<string>) {}

  /** Indexes the `index: true` attributes of one document's events (documents in ascending order). */
  add(doc: number, events: readonly AbciEvent[]): void {
    const limit = Math.min(events.length, EVENT_SLOTS);
    for (let i = 0; i < limit; i++) {
      const e = events[i]!;
      if (!e.type) continue;
      const id = doc * EVENT_SLOTS + i;
      for (const a of e.attributes) {
        if (!a.index || !a.key) continue;
        const key = `${e.type}.${a.key}`;
        if (this.reserved.has(key)) continue;
        let attr = this.keys.get(key);
        if (!attr) this.keys.set(key, (attr = { all: [], values: new Map(), numbers: new Map() }));
        if (attr.all[attr.all.length - 1] !== id) attr.all.push(id);
        let list = attr.values.get(a.value);
        if (!list) attr.values.set(a.value, (list = []));
        if (list[list.length - 1] !== id) list.push(id);
        this.entries++;
      }
    }
  }

  /** Index entries held (for metrics and tests). */
  get size(): number {
    return this.entries;
  }

  /**
   * Documents in `[docFrom, docTo)` having one event that satisfies every condition, ascending.
   * `conditions` must be non-empty and hold no height or hash conditions.
   */
  search(conditions: readonly Condition[], docFrom: number, docTo: number, budget: SearchBudget): number[] {
    const lo = docFrom * EVENT_SLOTS;
    const hi = docTo * EVENT_SLOTS;
    const slices: Slice[] = [];
    // Exact and EXISTS lists cost nothing to find; do them first so an empty one ends the search.
    const ordered = [...conditions].sort((a, b) => cost(a) - cost(b));
    const ranges = mergeRanges(ordered);
    for (const c of ordered) {
      if (isRange(c) && !ranges.has(c.tag)) continue; // merged into an earlier condition of its tag
      const slice = this.lookup(c, ranges, lo, hi, budget);
      if (slice.to <= slice.from) return [];
      slices.push(slice);
      if (isRange(c)) ranges.delete(c.tag);
    }
    return docsOf(intersect(slices, budget), budget);
  }

  private lookup(c: Condition, ranges: Map<string, Bounds>, lo: number, hi: number, budget: SearchBudget): Slice {
    const attr = this.keys.get(c.tag);
    if (!attr) return { list: [], from: 0, to: 0 };
    if (c.op === '=') return slice(attr.values.get(c.arg!.text) ?? [], lo, hi);
    if (c.op === 'EXISTS') return slice(attr.all, lo, hi);
    const pick: (value: string) => boolean = c.op === 'CONTAINS'
      ? (value) => value.includes(c.arg!.text)
      : this.inBounds(attr, ranges.get(c.tag)!);
    const parts: number[][] = [];
    budget.spend(attr.values.size);
    for (const [value, list] of attr.values) {
      if (!pick(value)) continue;
      const s = slice(list, lo, hi);
      budget.spend(s.to - s.from);
      if (s.to > s.from) parts.push(list.slice(s.from, s.to));
    }
    const union = parts.length === 1 ? parts[0]! : parts.flat().sort((a, b) => a - b);
    return { list: union, from: 0, to: union.length };
  }

  private inBounds(attr: AttributeIndex, bounds: Bounds): (value: string) => boolean {
    if (!bounds.numeric) return () => false;
    return (value) => {
      let n = attr.numbers.get(value);
      if (n === undefined) attr.numbers.set(value, (n = parseNumeric(value)));
      return n !== null && bounds.holds(n);
    };
  }
}

/** Equality and EXISTS first (a list lookup), then CONTAINS and ranges (a scan of the key's values). */
function cost(c: Condition): number {
  return c.op === '=' || c.op === 'EXISTS' ? 0 : 1;
}

export function isRange(c: Condition): boolean {
  return c.op === '<' || c.op === '<=' || c.op === '>' || c.op === '>=';
}

/**
 * The merged range of each tag (state/indexer/query_range.go LookForRangesWithHeight): later
 * conditions replace a bound of the same side; `>=`/`<=` make it inclusive (and it stays so).
 * Bounds compare exactly; a TIME/DATE bound makes the range match no event value.
 */
export class Bounds {
  lower: Decimal | undefined;
  upper: Decimal | undefined;
  includeLower = false;
  includeUpper = false;
  numeric = true;
  lowerTime: number | undefined;
  upperTime: number | undefined;

  add(c: Condition): void {
    const arg = c.arg!;
    const lower = c.op === '>' || c.op === '>=';
    if (arg.type === 'number') {
      if (lower) this.lower = new Decimal(arg.text);
      else this.upper = new Decimal(arg.text);
    } else {
      this.numeric = false;
      if (lower) this.lowerTime = argTime(arg);
      else this.upperTime = argTime(arg);
    }
    if (c.op === '>=') this.includeLower = true;
    if (c.op === '<=') this.includeUpper = true;
  }

  holds(v: Decimal): boolean {
    if (this.lower) {
      const cmp = v.cmp(this.lower);
      if (cmp < 0 || (cmp === 0 && !this.includeLower)) return false;
    }
    if (this.upper) {
      const cmp = v.cmp(this.upper);
      if (cmp > 0 || (cmp === 0 && !this.includeUpper)) return false;
    }
    return true;
  }

  /** The integers (heights) the bounds admit, clipped to [min, max]; empty when min > max. */
  integerSpan(min: number, max: number): { min: number; max: number } {
    if (!this.numeric) return { min: 1, max: 0 };
    let lo = min;
    let hi = max;
    if (this.lower) {
      const l = this.includeLower ? this.lower.ceil() : this.lower.floor().plus(1);
      if (l.gt(hi)) return { min: 1, max: 0 };
      if (l.gt(lo)) lo = l.toNumber();
    }
    if (this.upper) {
      const u = this.includeUpper ? this.upper.floor() : this.upper.ceil().minus(1);
      if (u.lt(lo)) return { min: 1, max: 0 };
      if (u.lt(hi)) hi = u.toNumber();
    }
    return { min: lo, max: hi };
  }
}

export function mergeRanges(conditions: readonly Condition[]): Map<string, Bounds> {
  const ranges = new Map<string, Bounds>();
  for (const c of conditions) {
    if (!isRange(c)) continue;
    let b = ranges.get(c.tag);
    if (!b) ranges.set(c.tag, (b = new Bounds()));
    b.add(c);
  }
  return ranges;
}

/** A value as the kv indexer reads it for ranges: big.Int, else big.Float (sign, fraction, exponent); else null. */
function parseNumeric(value: string): Decimal | null {
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(value)) return null;
  try {
    return new Decimal(value);
  } catch {
    return null;
  }
}

/** The part of a sorted list within [lo, hi). */
function slice(list: number[], lo: number, hi: number): Slice {
  return { list, from: lowerBound(list, lo, 0, list.length), to: lowerBound(list, hi, 0, list.length) };
}

/** First index in [from, to) whose value is >= x. */
function lowerBound(list: number[], x: number, from: number, to: number): number {
  let a = from;
  let b = to;
  while (a < b) {
    const m = (a + b) >>> 1;
    if (list[m]! < x) a = m + 1;
    else b = m;
  }
  return a;
}

/** Events present in every slice: walk the shortest, binary-search the others. */
function intersect(slices: Slice[], budget: SearchBudget): number[] {
  slices.sort((a, b) => (a.to - a.from) - (b.to - b.from));
  const [first, ...rest] = slices as [Slice, ...Slice[]];
  // Every event of the shortest list is looked up in each other list.
  budget.spend((first.to - first.from) * (rest.length + 1));
  const out: number[] = [];
  const cursors = rest.map((s) => s.from);
  for (let i = first.from; i < first.to; i++) {
    const id = first.list[i]!;
    let everywhere = true;
    for (let k = 0; k < rest.length; k++) {
      const s = rest[k]!;
      const at = lowerBound(s.list, id, cursors[k]!, s.to);
      cursors[k] = at;
      if (at >= s.to || s.list[at] !== id) { everywhere = false; break; }
    }
    if (everywhere) out.push(id);
  }
  return out;
}

/** The distinct documents of sorted events. */
function docsOf(events: number[], budget: SearchBudget): number[] {
  budget.spend(events.length);
  const docs: number[] = [];
  for (const id of events) {
    const doc = Math.floor(id / EVENT_SLOTS);
    if (docs[docs.length - 1] !== doc) docs.push(doc);
  }
  return docs;
}
