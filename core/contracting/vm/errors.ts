/**
 * Every failure inside the VM is a `VmError` carrying the chain's exact message text (the node
 * reports it verbatim as the transaction result), e.g. `Out of chi.` or `AssertionError('x')`.
 */
export class VmError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VmError';
  }
}

/** Rust `{:?}` of a string (used in `TypeError("…")` texts): `"` and `\` escaped, controls as \n \r \t \u{..}. */
export function rustDebugString(text: string): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\0') out += '\\0';
    else if (code < 0x20 || code === 0x7f) out += `\\u{${code.toString(16)}}`;
    else out += ch;
  }
  return out + '"';
}

/** `TypeError("…")` as the VM renders binding and typecheck errors. */
export function typeError(message: string): VmError {
  return new VmError(`TypeError(${rustDebugString(message)})`);
}

/**
 * A JS engine limit hit while running a contract, as the VM's error text: stack exhaustion
 * (deep nesting within the call-depth limit) or an oversized string/array/bigint.
 */
export function engineLimitMessage(err: RangeError): string {
  return /call stack/i.test(err.message) ? 'maximum recursion depth exceeded' : 'value exceeds the maximum allowed allocation size';
}

/** The failure text of a contract run for anything it throws; no JavaScript error text ever becomes it. */
export const INTERNAL_ERROR = 'internal VM error';

export function vmErrorText(err: unknown): string {
  if (err instanceof VmError) return err.message;
  if (err instanceof RangeError) return engineLimitMessage(err);
  // A defect of the VM, not of the contract: the node keeps going, the operator sees the stack.
  process.stderr.write(`contract VM: internal error: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  return INTERNAL_ERROR;
}
