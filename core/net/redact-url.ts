/**
 * The one credential redaction of every command: whatever prints, logs, answers or exports a URL
 * or a config value (a database URL, a Redis URL, a node URL) passes it through here first.
 *
 * What goes: the password of the userinfo (`user:pw@` → `user:***@`; Redis' `:pw@` → `:***@`),
 * the value of any query parameter named like a credential (`password`, `sslpassword`,
 * `PassWord`, a percent-encoded `pass%77ord`, `token`, `secret`, …) and the fragment. What stays:
 * the scheme, user name, host, port, database and the other parameters, including the paths of
 * `sslkey`, `sslcert`, `sslrootcert` and `passfile` (a path, never its contents — nothing here
 * reads a file). A parameter value that is itself a PEM block is redacted too. Text that does
 * not parse as a URL is not echoed at all: it may be a key=value DSN with a password in it.
 */
export const REDACTED = '***';

/** Query parameter names (decoded, any case) whose value is a credential. */
const SECRET_PARAMETER = /pass(word)?$|^pwd$|secret|token|^auth|api[-_]?key|credential/i;
const PEM = /-----BEGIN [A-Z ]+-----/;

export function redactUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return '(unparseable URL)';
  }
  let changed = false;
  if (u.password) {
    u.password = REDACTED;
    changed = true;
  }
  // Rebuilt only when a parameter is redacted: the others keep their order and values.
  const entries = [...u.searchParams];
  if (entries.some(([name, value]) => SECRET_PARAMETER.test(name) || PEM.test(value))) {
    u.search = entries.map(([name, value]) => `${readable(name)}=${SECRET_PARAMETER.test(name) || PEM.test(value) ? REDACTED : readable(value)}`).join('&');
    changed = true;
  }
  if (u.hash) {
    u.hash = REDACTED;
    changed = true;
  }
  // Nothing secret: the text as given (URL serialisation would add a trailing slash to a bare origin).
  return changed ? u.toString() : url;
}

/** A parameter name or value encoded for a query string, slashes and colons left readable (paths, hosts). */
function readable(text: string): string {
  return encodeURIComponent(text).replace(/%2F/gi, '/').replace(/%3A/gi, ':');
}

/** Scheme-prefixed URLs inside free text (a log line, an error message): each one through redactUrl. */
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;

/** `text` with every URL in it redacted; text without `://` is returned as is (the common case costs one indexOf). */
export function redactUrlsIn(text: string): string {
  if (!text.includes('://')) return text;
  return text.replace(URL_IN_TEXT, (found) => {
    // Trailing punctuation of the sentence is not part of the URL.
    const tail = /[),.;:!?\]]+$/.exec(found)?.[0] ?? '';
    const url = tail ? found.slice(0, -tail.length) : found;
    const redacted = redactUrl(url);
    return (redacted === '(unparseable URL)' ? '(a URL)' : redacted) + tail;
  });
}
