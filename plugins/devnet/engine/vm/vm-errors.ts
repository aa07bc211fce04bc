import { engineLimitMessage, VmError } from 'chainhost/contracting';

/**
 * What an exception that escaped the VM's own error handling reports on chain. Every failure
 * inside execution must end as a failed receipt (charged, nonce consumed) with a chain-style
 * text — never the JavaScript message, which names host internals and differs by engine
 * version. A VmError carries the chain's text already; a RangeError is an engine limit (stack
 * or allocation) named as the VM names it; anything else is an internal error, logged by the
 * caller and reported as `RuntimeError('internal execution error')`.
 */
export const INTERNAL_EXECUTION_ERROR = 'internal execution error';

export function unexpectedFailure(err: unknown): { message: string; errorClass?: string } {
  if (err instanceof VmError) return parseVmError(err.message);
  if (err instanceof RangeError) return { message: engineLimitMessage(err) };
  return { message: INTERNAL_EXECUTION_ERROR, errorClass: 'RuntimeError' };
}

/**
 * The VM reports a failure as one text — `AssertionError('Not enough coins to send.')`,
 * `TypeError("unexpected keyword argument 'x'")`, or a bare `Out of chi.` — exactly what the
 * python host turns back into an exception object before the node renders `safe_repr` of it.
 * Splitting it into the exception class and its message lets the node render the same repr and
 * lets callers read the message alone. A text that is not `Name(<one string literal>)` stays
 * whole, without a class (rendered verbatim, as the node does for `Out of chi.`).
 */
export function parseVmError(text: string): { message: string; errorClass?: string } {
  const m = /^([A-Z][A-Za-z0-9_]*)\((['"])([\s\S]*)\2\)$/.exec(text);
  if (!m) return { message: text };
  const body = m[3]!;
  const quote = m[2]!;
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch === quote) return { message: text }; // two literals, or an unescaped quote: not one string
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const next = body[++i];
    switch (next) {
      case 'n': out += '\n'; break;
      case 't': out += '\t'; break;
      case 'r': out += '\r'; break;
      case '0': out += '\0'; break;
      case '\\': case "'": case '"': out += next; break;
      case 'x': out += String.fromCodePoint(parseInt(body.slice(i + 1, i + 3), 16)); i += 2; break;
      case 'u': {
        if (body[i + 1] === '{') {
          const end = body.indexOf('}', i);
          out += String.fromCodePoint(parseInt(body.slice(i + 2, end), 16));
          i = end;
        } else {
          out += String.fromCodePoint(parseInt(body.slice(i + 1, i + 5), 16));
          i += 4;
        }
        break;
      }
      default: return { message: text };
    }
  }
  return { message: out, errorClass: m[1]! };
}
