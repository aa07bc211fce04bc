import type { JsonValue } from 'chainhost/chain';
import { list, obj } from './format.js';

/** State keys a deployment writes under `<contract>.`: the stored source and the compiled IR (abci-query.md `contract_ir`). */
export const SOURCE_SUFFIX = '.__source__';
export const IR_SUFFIX = '.__xian_ir_v1__';

/** IR text up to this size is shown inline (collapsed); larger IR is only offered as a download. */
export const INLINE_IR_BYTES = 256 * 1024;

export interface Deployment {
  contract: string;
  /** The source as the chain stored it, or (a deployment that failed) as it was submitted. */
  source: string | null;
  /** True when `source` is what the transaction submitted, not what the chain stored. */
  submittedOnly: boolean;
  /** The compiled IR as stored (JSON text), null when the transaction wrote none. */
  ir: string | null;
}

/**
 * The contracts a transaction deployed, from its state writes (`<name>.__source__`,
 * `<name>.__xian_ir_v1__`); a `submission.submit_contract` call that wrote nothing (it failed)
 * yields the submitted source, so a failed deployment still shows what was sent.
 */
export function deploymentsOf(writes: JsonValue | undefined, call: { contract?: JsonValue; function?: JsonValue; kwargs?: JsonValue }): Deployment[] {
  const found = new Map<string, Deployment>();
  const entry = (contract: string) => {
    let d = found.get(contract);
    if (!d) found.set(contract, (d = { contract, source: null, submittedOnly: false, ir: null }));
    return d;
  };
  for (const w of list(writes)) {
    const write = obj(w);
    if (typeof write.key !== 'string' || typeof write.value !== 'string') continue;
    if (write.key.endsWith(SOURCE_SUFFIX)) entry(write.key.slice(0, -SOURCE_SUFFIX.length)).source = write.value;
    else if (write.key.endsWith(IR_SUFFIX)) entry(write.key.slice(0, -IR_SUFFIX.length)).ir = write.value;
  }
  const kwargs = obj(call.kwargs);
  if (found.size === 0 && call.contract === 'submission' && call.function === 'submit_contract' && typeof kwargs.code === 'string' && typeof kwargs.name === 'string') {
    found.set(kwargs.name, { contract: kwargs.name, source: kwargs.code, submittedOnly: true, ir: null });
  }
  return [...found.values()];
}

/** The IR text pretty-printed for reading (as stored when it is not JSON). */
export function prettyIr(ir: string): string {
  try {
    return JSON.stringify(JSON.parse(ir), null, 2);
  } catch {
    return ir;
  }
}

/** "12.3 KB" */
export function sizeText(text: string): string {
  const bytes = Buffer.byteLength(text, 'utf8');
  return bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} KB`;
}
