import { MAX_SYNTAX_DEPTH, TOO_DEEPLY_NESTED_CODE } from './limits.js';
import { SourceParseError } from './parse-error.js';

/**
 * The lexical rules of Python that @lezer/python does not enforce, checked in one linear pass before
 * the parser sees the text. lezer is an editor's grammar: it reads an unterminated string as a
 * string, ignores indentation it cannot match and recovers from a missing bracket at whatever token
 * comes next; the chain's parser (rustpython's lexer) refuses all of these. Checked here:
 *
 * - strings: a quote left open at the end of its line (or a triple quote at the end of the file);
 * - brackets: a closer without an opener, a closer of the wrong kind, an opener never closed —
 *   reported at the opening bracket, as CPython does ("'(' was never closed"); nesting past
 *   `MAX_SYNTAX_DEPTH` (the `{…}` fields of f-strings count, strings and comments do not);
 * - a backslash that is not the last character of its line;
 * - indentation at the start of each logical line, with rustpython's rules: a tab after spaces is
 *   refused; levels compare by their counts of tabs and of spaces, and when the two counts disagree
 *   the level is ambiguous (`TabError`); an indent must follow a line ending in `:` (and such a line
 *   must be followed by one); a dedent must return to an enclosing level.
 *
 * Lexical errors are thrown, to be reported before parse errors as CPython does (its tokenizer's
 * error replaces a generic "invalid syntax" of the parser). A bracket never closed is returned
 * instead: CPython reports it only when the parser's own error lies on a later line than the
 * bracket (`def f(:` is "invalid syntax" at the colon), so the caller decides.
 */
export function scanSource(source: string): ScanResult {
  const scanner = new Scanner(source);
  const unclosed = scanner.run();
  return { unclosed, endingContinuations: scanner.endingContinuations };
}

export interface ScanResult {
  /** A bracket never closed (see above). */
  unclosed: SourceParseError | undefined;
  /**
   * Offsets of backslashes followed by a blank or comment-only line. In Python that line's break
   * ends the statement (`x = 1\` + blank + `-2` is two statements); lezer skips blank lines and
   * would read `x = 1 - 2`, so the parser is given a blank in place of such a backslash.
   */
  endingContinuations: number[];
}

interface Level {
  tabs: number;
  spaces: number;
}

const OPENERS: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
const CLOSERS: Record<string, string> = { ')': '(', ']': '[', '}': '{' };
const STRING_PREFIXES = new Set(['r', 'u', 'f', 'b', 'br', 'rb', 'fr', 'rf']);

class Scanner {
  private i = 0;
  /** Open brackets outside strings, with their offsets. */
  private readonly brackets: { char: string; at: number }[] = [];
  /** Depth including the bracket-like `{…}` fields of f-strings (only for the nesting limit). */
  private fieldDepth = 0;
  private readonly indents: Level[] = [{ tabs: 0, spaces: 0 }];
  /** The last significant token of the current logical line (to know whether it opens a block). */
  private lastToken = '';
  /** Whether the previous logical line ended with `:` (a block must follow). */
  private blockExpected = false;
  readonly endingContinuations: number[] = [];

  constructor(private readonly source: string) {}

  run(): SourceParseError | undefined {
    const s = this.source;
    const n = s.length;
    this.lineStart();
    while (this.i < n) {
      const ch = s[this.i]!;
      if (ch === '\n' || ch === '\r') {
        this.i += ch === '\r' && s[this.i + 1] === '\n' ? 2 : 1;
        if (this.brackets.length === 0 && this.lastToken !== '') this.endLogicalLine();
        if (this.brackets.length === 0) this.lineStart();
        continue;
      }
      if (ch === ' ' || ch === '\t' || ch === '\f') {
        this.i++;
        continue;
      }
      if (ch === '#') {
        while (this.i < n && s[this.i] !== '\n' && s[this.i] !== '\r') this.i++;
        continue;
      }
      if (ch === '\\') {
        const next = s[this.i + 1];
        if (next === '\n' || next === '\r') {
          const at = this.i;
          this.i += next === '\r' && s[this.i + 2] === '\n' ? 3 : 2;
          // `    \` + `x = 1`: Python indents the statement as the backslash's line, lezer as the next
          // line; when the two differ the trees differ, so such a source is refused (a parse error).
          if (this.lastToken === '' && this.brackets.length === 0 && leadingBlanks(s, lineStartOf(s, at)) !== leadingBlanks(s, this.i)) {
            throw new SourceParseError(at, 'a line continuation before the first token of a statement must be followed by a line of the same indentation');
          }
          // A continuation must continue something: the file may not end right after it.
          if (this.i >= n) throw new SourceParseError(backslashAt(s, this.i), 'unexpected EOF while parsing');
          if (blankRest(s, this.i)) this.endingContinuations.push(backslashAt(s, this.i));
          continue;
        }
        if (next === undefined) throw new SourceParseError(this.i, 'unexpected EOF while parsing');
        throw new SourceParseError(this.i, 'unexpected character after line continuation character');
      }
      if (ch === '"' || ch === "'") {
        this.string(this.i, this.i, '');
        continue;
      }
      if (isIdentifierChar(ch)) {
        const start = this.i;
        while (this.i < n && isIdentifierChar(s[this.i]!)) this.i++;
        const word = s.slice(start, this.i);
        const quote = s[this.i];
        if ((quote === '"' || quote === "'") && STRING_PREFIXES.has(word.toLowerCase())) this.string(start, this.i, word.toLowerCase());
        else this.lastToken = word;
        continue;
      }
      if (OPENERS[ch]) {
        this.brackets.push({ char: ch, at: this.i });
        this.open(this.i);
      } else if (CLOSERS[ch]) {
        const top = this.brackets.pop();
        if (!top) throw new SourceParseError(this.i, `unmatched '${ch}'`);
        if (top.char !== CLOSERS[ch]) {
          throw new SourceParseError(this.i, `closing parenthesis '${ch}' does not match opening parenthesis '${top.char}'`);
        }
        this.fieldDepth--;
      }
      this.lastToken = ch;
      this.i++;
    }
    const unclosed = this.brackets[this.brackets.length - 1];
    if (unclosed) return new SourceParseError(unclosed.at, `'${unclosed.char}' was never closed`);
    if (this.lastToken !== '') this.endLogicalLine();
    if (this.blockExpected) throw new SourceParseError(n, 'expected an indented block');
    return undefined;
  }

  private open(offset: number): void {
    this.fieldDepth++;
    if (this.fieldDepth > MAX_SYNTAX_DEPTH) {
      throw new SourceParseError(offset, `brackets nest deeper than the limit of ${MAX_SYNTAX_DEPTH} levels`, TOO_DEEPLY_NESTED_CODE);
    }
  }

  private endLogicalLine(): void {
    this.blockExpected = this.lastToken === ':';
    this.lastToken = '';
  }

  /**
   * At the start of a physical line outside brackets: reads its indentation and, when the line holds
   * a token (not blank, not only a comment), checks it against the enclosing levels as rustpython's
   * lexer does (`eat_indentation`, `handle_indentations`).
   */
  private lineStart(): void {
    const s = this.source;
    const n = s.length;
    let tabs = 0;
    let spaces = 0;
    for (;;) {
      const ch = s[this.i];
      if (ch === ' ') spaces++;
      else if (ch === '\t') {
        if (spaces !== 0) throw new SourceParseError(this.i, 'inconsistent use of tabs and spaces in indentation (a tab after spaces)');
        tabs++;
      } else if (ch === '\f') {
        tabs = 0;
        spaces = 0;
      } else break;
      this.i++;
    }
    const ch = s[this.i];
    // Blank lines, comment lines and the end of the file carry no indentation.
    if (this.i >= n || ch === '\n' || ch === '\r' || ch === '#') return;
    const level = { tabs, spaces };
    const at = this.i;
    const order = compareLevels(level, this.current(), at);
    if (order > 0) {
      if (!this.blockExpected) throw new SourceParseError(at, 'unexpected indent');
      this.indents.push(level);
    } else {
      if (this.blockExpected) throw new SourceParseError(at, 'expected an indented block');
      while (compareLevels(level, this.current(), at) < 0) this.indents.pop();
      if (compareLevels(level, this.current(), at) !== 0) {
        throw new SourceParseError(at, 'unindent does not match any outer indentation level');
      }
    }
    this.blockExpected = false;
  }

  private current(): Level {
    return this.indents[this.indents.length - 1]!;
  }

  /**
   * Skips the string whose prefix starts at `start` and whose quote is at `quoteAt`. Inside an
   * f-string the `{…}` fields count toward the nesting limit. A backslash keeps the next character
   * (a quote or a line break) inside the string, raw or not, as Python's tokenizer does.
   */
  private string(start: number, quoteAt: number, prefix: string): void {
    const s = this.source;
    const n = s.length;
    const quote = s[quoteAt]!;
    const triple = s.startsWith(quote.repeat(3), quoteAt);
    const format = prefix.includes('f');
    let i = quoteAt + (triple ? 3 : 1);
    const fieldsBefore = this.fieldDepth;
    for (;;) {
      if (i >= n) {
        throw new SourceParseError(start, triple ? 'unterminated triple-quoted string literal' : 'unterminated string literal');
      }
      const ch = s[i]!;
      if (ch === '\\') {
        i += s[i + 1] === '\r' && s[i + 2] === '\n' ? 3 : 2;
        continue;
      }
      if (!triple && (ch === '\n' || ch === '\r')) throw new SourceParseError(start, 'unterminated string literal');
      if (ch === quote && (!triple || s.startsWith(quote.repeat(3), i))) {
        i += triple ? 3 : 1;
        break;
      }
      if (format) {
        if ((ch === '{' || ch === '}') && s[i + 1] === ch) {
          i += 2;
          continue;
        }
        if (ch === '{' || ch === '(' || ch === '[') this.open(i);
        else if ((ch === '}' || ch === ')' || ch === ']') && this.fieldDepth > fieldsBefore) this.fieldDepth--;
      }
      i++;
    }
    this.fieldDepth = fieldsBefore;
    this.i = i;
    this.lastToken = 'string';
  }
}

/** The blanks that start the line at `from`. */
function leadingBlanks(s: string, from: number): string {
  let i = from;
  while (s[i] === ' ' || s[i] === '\t' || s[i] === '\f') i++;
  return s.slice(from, i);
}

/** Offset of the start of the physical line holding `at`. */
function lineStartOf(s: string, at: number): number {
  let i = at;
  while (i > 0 && s[i - 1] !== '\n' && s[i - 1] !== '\r') i--;
  return i;
}

/** Whether the line starting at `from` holds only blanks and maybe a comment. */
function blankRest(s: string, from: number): boolean {
  let i = from;
  while (s[i] === ' ' || s[i] === '\t' || s[i] === '\f') i++;
  return i >= s.length || s[i] === '\n' || s[i] === '\r' || s[i] === '#';
}

/** The backslash of the continuation whose line break ends just before `after`. */
function backslashAt(s: string, after: number): number {
  return s[after - 1] === '\n' && s[after - 2] === '\r' ? after - 3 : after - 2;
}

/**
 * rustpython's `compare_strict`: a level is deeper only when neither its tabs nor its spaces are
 * fewer; when one count is larger and the other smaller the order depends on the tab size — a
 * `TabError`, as in CPython.
 */
function compareLevels(a: Level, b: Level, at: number): number {
  if (a.tabs < b.tabs) {
    if (a.spaces <= b.spaces) return -1;
  } else if (a.tabs > b.tabs) {
    if (a.spaces >= b.spaces) return 1;
  } else return Math.sign(a.spaces - b.spaces);
  throw new SourceParseError(at, 'inconsistent use of tabs and spaces in indentation');
}

/** Letters, digits, `_` and any non-ASCII character (identifiers and numbers; the parser checks them). */
function isIdentifierChar(ch: string): boolean {
  const c = ch.charCodeAt(0);
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c > 127;
}
