import assert from 'node:assert/strict';
import { globMatch } from '../../../../plugins/dashboard/ws/glob.js';
import { cpuTimeOfSync } from '../../../support/cpu-time.js';

/** The RegExp translation the matcher replaced: a correct oracle on patterns too small to blow up. */
function oracle(text: string, pattern: string): boolean {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') out += '[\\s\\S]*';
    else if (c === '?') out += '[\\s\\S]';
    else if (c === '[') {
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
  return new RegExp(`^${out}$`).test(text);
}

/** A small deterministic generator, so a failure names a reproducible case. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

describe('dashboard /ws subscription globs', () => {
  it('agree with the fnmatch RegExp translation on 20,000 generated pattern/key pairs', () => {
    const next = lcg(19);
    const pick = (alphabet: string, max: number) => Array.from({ length: Math.floor(next() * max) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
    for (let n = 0; n < 20_000; n++) {
      const pattern = pick('ab.*?[]!-c', 9);
      const text = pick('ab.c-]!', 8);
      let expected: boolean;
      try {
        expected = oracle(text, pattern);
      } catch {
        continue; // a reversed range like [b-a] is a RegExp syntax error; fnmatch reads it as matching nothing
      }
      assert.equal(globMatch(text, pattern), expected, `${JSON.stringify(pattern)} on ${JSON.stringify(text)}`);
    }
  });

  it('a reversed range matches nothing, as fnmatch reads it', () => {
    assert.equal(globMatch('b', '[b-a]'), false);
    assert.equal(globMatch('b', '[!b-a]'), true);
  });

  it('the issue #19 pattern *?*?*?*?*?*?! matches a block\'s keys in milliseconds, not seconds', () => {
    const key = 'currency.balances:' + 'a'.repeat(30);
    const { ms } = cpuTimeOfSync(() => { for (let i = 0; i < 20; i++) assert.equal(globMatch(key, '*?*?*?*?*?*?!'), false); });
    assert.ok(ms < 250, `20 matches took ${ms.toFixed(0)} ms of CPU`);
  });

  it('the same pattern grown to the 512-character cap against a 1,000-character key stays in milliseconds', () => {
    const pattern = '*?'.repeat(255) + '!';
    const key = 'currency.balances:' + 'a'.repeat(1000);
    const { ms } = cpuTimeOfSync(() => { for (let i = 0; i < 20; i++) assert.equal(globMatch(key, pattern), false); });
    assert.ok(ms < 1000, `20 matches took ${ms.toFixed(0)} ms of CPU`);
  });

  it('the matcher\'s own worst case — middle pieces that almost fit at every position — stays in milliseconds', () => {
    const pattern = `*${'a'.repeat(250)}b*${'a?'.repeat(120)}*`;
    const key = 'a'.repeat(1000);
    const { ms } = cpuTimeOfSync(() => { for (let i = 0; i < 20; i++) assert.equal(globMatch(key, pattern), false); });
    assert.ok(ms < 250, `20 matches took ${ms.toFixed(0)} ms of CPU`);
  });
});
