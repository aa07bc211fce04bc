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

/** Token colours for the dark source box (each at least 4.5:1 against #0f1720). */
export const HIGHLIGHT_CSS = `
.hljs-keyword,.hljs-built_in{color:#ff9bd1}.hljs-string{color:#a5e8a0}.hljs-number,.hljs-literal{color:#ffcf70}
.hljs-comment{color:#a0aec0;font-style:italic}.hljs-title,.hljs-title.function_{color:#8fd3ff}.hljs-meta{color:#f5b07a}
.hljs-params{color:#e6edf3}.hljs-subst{color:#e6edf3}`;
