/**
 * Shell-style patterns as Python's `fnmatch` reads them (dashboard.md §6.3): `*` any run of
 * characters (including `.`, `:` and `_`), `?` one character, `[abc]`/`[a-z]` a set, `[!abc]` a
 * negated set; everything else literal. Matching is case-sensitive and whole-string.
 *
 * A client picks the pattern, so it is never turned into a backtracking RegExp (`*?*?*?…!`
 * made every later key match take seconds, issue #19). It is compiled into a bit-parallel NFA
 * (Shift-And): one bit per non-star position, a star being a self-loop on the bit before it.
 * Each key character updates the whole state in ⌈positions / 32⌉ word operations, so a match
 * costs key length × 16 word steps at the 512-character cap — linear in the key, with no
 * backtracking whatever the pattern. The per-character masks are built lazily and cached per
 * pattern.
 */

/** One pattern position that consumes exactly one character (UTF-16 code unit, like the RegExp it replaced). */
type Atom =
  | { kind: 'any' }
  | { kind: 'char'; code: number }
  | { kind: 'set'; negate: boolean; ranges: number[] };

export interface CompiledGlob {
  readonly atoms: readonly Atom[];
  /** Bit i: a star follows atom i (its state loops on any character). */
  readonly loops: Uint32Array;
  /** A star before the first atom: a match may start at any character. */
  readonly leadingStar: boolean;
  readonly words: number;
  /** Per character code: bit i set when atom i accepts it. */
  readonly masks: Map<number, Uint32Array>;
}

const cache = new Map<string, CompiledGlob>();
const MAX_CACHED = 4096;

export function compileGlob(pattern: string): CompiledGlob {
  const atoms: Atom[] = [];
  const starAfter: boolean[] = [];
  let leadingStar = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') {
      if (atoms.length === 0) leadingStar = true;
      else starAfter[atoms.length - 1] = true;
      continue;
    }
    if (c === '?') atoms.push({ kind: 'any' });
    else if (c === '[') {
      // A `]` right after `[` or `[!` is a member of the set, not its end.
      const close = pattern.indexOf(']', i + (pattern[i + 1] === '!' ? 3 : 2));
      if (close === -1) {
        atoms.push({ kind: 'char', code: c.charCodeAt(0) });
        continue;
      }
      let body = pattern.slice(i + 1, close);
      const negate = body.startsWith('!');
      if (negate) body = body.slice(1);
      atoms.push({ kind: 'set', negate, ranges: setRanges(body) });
      i = close;
    } else atoms.push({ kind: 'char', code: c.charCodeAt(0) });
  }
  const words = Math.max(1, Math.ceil(atoms.length / 32));
  const loops = new Uint32Array(words);
  for (let a = 0; a < atoms.length; a++) if (starAfter[a]) loops[a >>> 5]! |= 1 << (a & 31);
  return { atoms, loops, leadingStar, words, masks: new Map() };
}

const MAX_MASKS_PER_PATTERN = 512;

function maskOf(glob: CompiledGlob, code: number): Uint32Array {
  let mask = glob.masks.get(code);
  if (!mask) {
    mask = new Uint32Array(glob.words);
    for (let a = 0; a < glob.atoms.length; a++) if (atomMatches(glob.atoms[a]!, code)) mask[a >>> 5]! |= 1 << (a & 31);
    if (glob.masks.size >= MAX_MASKS_PER_PATTERN) glob.masks.clear();
    glob.masks.set(code, mask);
  }
  return mask;
}

/** `a-z0_` → [a,z, 0,0, _,_]: inclusive code ranges; a reversed range matches nothing, like fnmatch. */
function setRanges(body: string): number[] {
  const ranges: number[] = [];
  for (let j = 0; j < body.length; j++) {
    const lo = body.charCodeAt(j);
    if (body[j + 1] === '-' && j + 2 < body.length) {
      ranges.push(lo, body.charCodeAt(j + 2));
      j += 2;
    } else ranges.push(lo, lo);
  }
  return ranges;
}

function atomMatches(atom: Atom, code: number): boolean {
  if (atom.kind === 'any') return true;
  if (atom.kind === 'char') return atom.code === code;
  let inSet = false;
  for (let k = 0; k < atom.ranges.length && !inSet; k += 2) inSet = code >= atom.ranges[k]! && code <= atom.ranges[k + 1]!;
  return inSet !== atom.negate;
}

export function matchCompiledGlob(text: string, glob: CompiledGlob): boolean {
  const n = glob.atoms.length;
  if (n === 0) return glob.leadingStar || text.length === 0;
  const { words, loops } = glob;
  // state bit i: atoms 0..i matched the text read so far (the last character taken by atom i or the star after it).
  let state = new Uint32Array(words);
  let next = new Uint32Array(words);
  for (let t = 0; t < text.length; t++) {
    const mask = maskOf(glob, text.charCodeAt(t));
    const start = t === 0 || glob.leadingStar ? 1 : 0;
    let carry = start;
    let alive = 0;
    for (let w = 0; w < words; w++) {
      const word = state[w]!;
      const shifted = ((word << 1) | carry) >>> 0;
      carry = word >>> 31;
      const value = ((shifted & mask[w]!) | (word & loops[w]!)) >>> 0;
      next[w] = value;
      alive |= value;
    }
    if (alive === 0 && !glob.leadingStar) return false;
    const previous = state;
    state = next;
    next = previous;
  }
  const last = n - 1;
  return ((state[last >>> 5]! >>> (last & 31)) & 1) === 1;
}

export function globMatch(text: string, pattern: string): boolean {
  let glob = cache.get(pattern);
  if (!glob) {
    glob = compileGlob(pattern);
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(pattern, glob);
  }
  return matchCompiledGlob(text, glob);
}
