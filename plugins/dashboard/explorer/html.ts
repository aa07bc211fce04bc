/**
 * HTML built with a tagged template that escapes every interpolated value unless it is already
 * `SafeHtml` (the result of another `html` template). Chain data — contract names, kwargs, event
 * fields, state values — is attacker-controlled text, so nothing reaches the page unescaped.
 */
export class SafeHtml {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

type Part = SafeHtml | string | number | bigint | boolean | null | undefined | readonly Part[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => ESCAPES[c]!);
}

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return '';
  if (part instanceof SafeHtml) return part.text;
  if (Array.isArray(part)) return part.map(render).join('');
  return escapeHtml(String(part));
}

export function html(strings: TemplateStringsArray, ...values: Part[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new SafeHtml(out);
}

/** Text that is known to be markup (constants in this folder only — never chain data). */
export function trusted(markup: string): SafeHtml {
  return new SafeHtml(markup);
}
