import hljs from 'highlight.js/lib/core';
import python from 'highlight.js/lib/languages/python';
import { html, trusted, type SafeHtml } from './html.js';

// Only Python is registered: contract source is Python, and auto-detection is never used.
hljs.registerLanguage('python', python);

/**
 * Contract source highlighted on the server (no script in the page). highlight.js escapes the
 * source text itself and only adds `<span class="hljs-…">` around tokens, so its output is
 * markup we can trust; source it fails on is shown escaped and plain.
 */
export function highlightPython(source: string): SafeHtml {
  try {
    return trusted(hljs.highlight(source, { language: 'python', ignoreIllegals: true }).value);
  } catch {
    return html`${source}`;
  }
}

/**
 * Highlighted markup cut into lines. A token may span lines (a docstring), so the spans open at
 * a line break are closed at its end and reopened on the next line: every line is balanced
 * markup on its own. highlight.js emits only `<span class="…">`, `</span>` and escaped text.
 */
export function splitHighlightedLines(markup: string): string[] {
  const lines: string[] = [];
  const open: string[] = [];
  let line = '';
  for (const piece of markup.split(/(<span [^>]*>|<\/span>|\n)/)) {
    if (piece === '\n') {
      lines.push(line + '</span>'.repeat(open.length));
      line = open.join('');
    } else if (piece.startsWith('<span ')) {
      open.push(piece);
      line += piece;
    } else if (piece === '</span>') {
      open.pop();
      line += piece;
    } else {
      line += piece;
    }
  }
  lines.push(line + '</span>'.repeat(open.length));
  return lines;
}

/**
 * A contract's source as a reader wants it: highlighted, one row per line with its number (the
 * number drawn by CSS, so copying the code copies no numbers), in a box that scrolls.
 */
export function sourceListing(source: string, label: string): SafeHtml {
  const lines = splitHighlightedLines(highlightPython(source.replace(/\r\n?/g, '\n').replace(/\n$/, '')).text);
  const rows = lines.map((l) => trusted(`<span class="ln">${l}</span>\n`));
  return html`<pre class="source numbered" tabindex="0" role="region" aria-label="${label}"><code class="language-python">${rows}</code></pre>`;
}

/** Token colours for the dark source box (each at least 4.5:1 against #0f1720); line numbers as counters. */
export const HIGHLIGHT_CSS = `
.hljs-keyword,.hljs-built_in{color:#ff9bd1}.hljs-string{color:#a5e8a0}.hljs-number,.hljs-literal{color:#ffcf70}
.hljs-comment{color:#a0aec0;font-style:italic}.hljs-title,.hljs-title.function_{color:#8fd3ff}.hljs-meta{color:#f5b07a}
.hljs-params{color:#e6edf3}.hljs-subst{color:#e6edf3}
pre.numbered code{counter-reset:line}
pre.numbered .ln{counter-increment:line}
pre.numbered .ln::before{content:counter(line);display:inline-block;width:3.2em;margin-right:1em;padding-right:.6em;text-align:right;color:#a0aec0;border-right:1px solid #3a4656;user-select:none}`;
