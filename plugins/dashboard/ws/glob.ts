/**
 * Shell-style patterns as Python's `fnmatch` reads them (dashboard.md §6.3): `*` any run of
 * characters (including `.`, `:` and `_`), `?` one character, `[abc]`/`[a-z]` a set, `[!abc]` a
 * negated set; everything else literal. Matching is case-sensitive and whole-string.
 *
 * A client picks the pattern, so it is never turned into a backtracking RegExp (`*?*?*?…!`
 * made every later key match take seconds, issue #19). The pattern is compiled into the
 * fixed-width pieces between its stars; the first is anchored at the start, the last at the
 * end, and each middle one is placed at its leftmost fit once. That is exact for globs (a
 * leftmost fit leaves the most room for what follows) and never backtracks: the work is at
 * most key length × pattern length, linear in each.
 */

/** One pattern position that consumes exactly one character (UTF-16 code unit, like the RegExp it replaced). */
type Atom =
  | { kind: 'any' }
  | { kind: 'char'; code: number }
  | { kind: 'set'; negate: boolean; ranges: number[] };

export interface CompiledGlob {
  /** Fixed-width pieces between stars; a pattern without a star is one piece. */
  readonly pieces: readonly (readonly Atom[])[];
  readonly starred: boolean;
}

const cache = new Map<string, CompiledGlob>();
const MAX_CACHED = 4096;

export function compileGlob(pattern: string): CompiledGlob {
  const pieces: Atom[][] = [[]];
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') {
      // Consecutive stars are one star.
      if (pieces.length === 1 || pieces[pieces.length - 1]!.length > 0) pieces.push([]);
      continue;
    }
    const piece = pieces[pieces.length - 1]!;
    if (c === '?') piece.push({ kind: 'any' });
    else if (c === '[') {
      // A `]` right after `[` or `[!` is a member of the set, not its end.
      const close = pattern.indexOf(']', i + (pattern[i + 1] === '!' ? 3 : 2));
      if (close === -1) {
        piece.push({ kind: 'char', code: c.charCodeAt(0) });
        continue;
      }
      let body = pattern.slice(i + 1, close);
      const negate = body.startsWith('!');
      if (negate) body = body.slice(1);
      piece.push({ kind: 'set', negate, ranges: setRanges(body) });
      i = close;
    } else piece.push({ kind: 'char', code: c.charCodeAt(0) });
  }
  return { pieces, starred: pieces.length > 1 };
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

function pieceMatchesAt(piece: readonly Atom[], text: string, at: number): boolean {
  for (let k = 0; k < piece.length; k++) if (!atomMatches(piece[k]!, text.charCodeAt(at + k))) return false;
  return true;
}

export function matchCompiledGlob(text: string, glob: CompiledGlob): boolean {
  const { pieces } = glob;
  const head = pieces[0]!;
  if (!glob.starred) return text.length === head.length && pieceMatchesAt(head, text, 0);
  const tail = pieces[pieces.length - 1]!;
  const end = text.length - tail.length;
  if (end < head.length || !pieceMatchesAt(head, text, 0) || !pieceMatchesAt(tail, text, end)) return false;
  let pos = head.length;
  for (let p = 1; p < pieces.length - 1; p++) {
    const piece = pieces[p]!;
    let at = pos;
    while (at + piece.length <= end && !pieceMatchesAt(piece, text, at)) at++;
    if (at + piece.length > end) return false;
    pos = at + piece.length;
  }
  return true;
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
