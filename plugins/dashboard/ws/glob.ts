/**
 * Shell-style patterns as Python's `fnmatch` reads them (dashboard.md §6.3): `*` any run of
 * characters (including `.`, `:` and `_`), `?` one character, `[abc]`/`[a-z]` a set, `[!abc]` a
 * negated set; everything else literal. Matching is case-sensitive and whole-string.
 */
const cache = new Map<string, RegExp>();
const MAX_CACHED = 4096;

export function globToRegExp(pattern: string): RegExp {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') out += '[\\s\\S]*';
    else if (c === '?') out += '[\\s\\S]';
    else if (c === '[') {
      // A `]` right after `[` or `[!` is a member of the set, not its end.
      const close = pattern.indexOf(']', i + (pattern[i + 1] === '!' ? 3 : 2));
      if (close === -1) {
        out += '\\[';
        continue;
      }
      let body = pattern.slice(i + 1, close);
      let negate = false;
      if (body.startsWith('!')) {
        negate = true;
        body = body.slice(1);
      }
      body = body.replace(/[\\^[\]]/g, '\\$&');
      out += `[${negate ? '^' : ''}${body}]`;
      i = close;
    } else out += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

export function globMatch(text: string, pattern: string): boolean {
  let re = cache.get(pattern);
  if (!re) {
    re = globToRegExp(pattern);
    if (cache.size >= MAX_CACHED) cache.clear();
    cache.set(pattern, re);
  }
  return re.test(text);
}
