import { VmError } from './errors.js';
import { ALLOCATION_LIMIT_ERROR, MAX_CONCAT_LENGTH, MAX_CONTAINER_LENGTH, MAX_TRANSACTION_ALLOCATION_BYTES } from './limits.js';

/**
 * The VM's own memory bounds, checked BEFORE a value is built (V8 ends the process with an
 * uncatchable "invalid size" when a string or array passes its engine limit, so no builder may
 * ever ask for one): every string/bytes a builder makes is at most `MAX_CONCAT_LENGTH` long,
 * every list/tuple/dict/set at most `MAX_CONTAINER_LENGTH` items, and all the values one
 * transaction builds add up to at most `MAX_TRANSACTION_ALLOCATION_BYTES` (so many max-size
 * values cannot exhaust the node either). The per-transaction count is of bytes *built*, not of
 * bytes live: it is deterministic (every node stops the same transaction at the same point),
 * which a measure of the heap would not be. All three stop with `ALLOCATION_LIMIT_ERROR`.
 *
 * The VM runs one transaction at a time per thread, so the running count is module state; it is
 * reset when the outermost transaction of this thread starts (`withAllocationBudget`), and a
 * nested one (a constructor run during a deployment) shares its parent's count.
 */
let built = 0;
let depth = 0;

/** Bytes a container slot is counted for (a pointer; the element itself is counted where it is built). */
export const SLOT_BYTES = 8;
/** A slot filled with a value evaluated for it (comprehension, map, list literal): pointer + a boxed scalar. */
export const NEW_ELEMENT_BYTES = 48;
/** A dict entry: its [key, value] pair plus the slot. */
export const ENTRY_BYTES = 48;

export function withAllocationBudget<T>(fn: () => T): T {
  if (depth === 0) built = 0;
  depth++;
  try {
    return fn();
  } finally {
    depth--;
  }
}

/** Bytes counted so far in the current transaction (for tests and benches). */
export function allocatedBytes(): number {
  return built;
}

function count(bytes: number): void {
  if (depth === 0) return;
  built += bytes;
  if (built > MAX_TRANSACTION_ALLOCATION_BYTES) throw new VmError(ALLOCATION_LIMIT_ERROR);
}

/** The cap alone (the builder that follows counts what it makes). */
export function checkTextLength(length: number): void {
  if (!(length <= MAX_CONCAT_LENGTH)) throw new VmError(ALLOCATION_LIMIT_ERROR);
}

/** Before building a string of `length` UTF-16 units (or bytes of `length`). */
export function reserveText(length: number): void {
  if (!(length <= MAX_CONCAT_LENGTH)) throw new VmError(ALLOCATION_LIMIT_ERROR);
  count(length + 16);
}

/** Before building a list/tuple/dict/set of `items` entries, `bytesPerItem` each. */
export function reserveItems(items: number, bytesPerItem = SLOT_BYTES): void {
  if (!(items <= MAX_CONTAINER_LENGTH)) throw new VmError(ALLOCATION_LIMIT_ERROR);
  count(items * bytesPerItem + 16);
}

/** A temporary array (iteration over a string, positions of a slice): counted, not capped at the container cap. */
export function reserveTemporary(items: number): void {
  if (!(items <= MAX_CONCAT_LENGTH)) throw new VmError(ALLOCATION_LIMIT_ERROR);
  count(items * SLOT_BYTES);
}

/** Only counts (for values whose size is already bounded, e.g. ints under the 1 Mi-bit cap). */
export function countBytes(bytes: number): void {
  count(bytes);
}

/** Checks a built string whose size could not be known beforehand but is bounded (case mapping: ≤ 3× its input). */
export function checkedText(text: string): string {
  reserveText(text.length);
  return text;
}

/**
 * Builds a string piece by piece, refusing the piece that would pass the cap before it is
 * appended (each piece is itself a value under the cap, so nothing oversized is ever made).
 */
export class TextBuilder {
  private chunks: string[] = [];
  private pending: string[] = [];
  private length = 0;

  push(piece: string): void {
    const next = this.length + piece.length;
    if (next > MAX_CONCAT_LENGTH) throw new VmError(ALLOCATION_LIMIT_ERROR);
    this.length = next;
    this.pending.push(piece);
    // Many small pieces (a long list's separators) are joined a batch at a time: a pointer per
    // character would cost more than the text.
    if (this.pending.length >= 4096) {
      this.chunks.push(this.pending.join(''));
      this.pending = [];
    }
  }

  get size(): number {
    return this.length;
  }

  done(): string {
    reserveText(this.length);
    if (!this.chunks.length) return this.pending.length === 1 ? this.pending[0]! : this.pending.join('');
    return this.chunks.join('') + this.pending.join('');
  }
}
