import { formatFloat } from './format-float.js';

/** A float constant's value: written with upstream's float format, not as a JS number. */
export class IrFloat {
  constructor(readonly value: number) {}
}

/** IR values: integers are JS numbers (spans) or bigints (int constants that fit i64). */
export type IrValue = null | boolean | number | bigint | string | IrFloat | IrValue[] | IrObject;
export interface IrObject {
  [key: string]: IrValue;
}

/**
 * The IR's canonical text (upstream's `to_python_canonical_json`): Python's `json.dumps(sort_keys=True)`
 * layout (`", "` and `": "` separators) with serde_json's string escaping (raw UTF-8).
 */
export function canonicalIrJson(value: IrValue): string {
  const parts: string[] = [];
  write(value, parts);
  return parts.join('');
}

function write(value: IrValue, out: string[]): void {
  if (value === null) out.push('null');
  else if (typeof value === 'boolean') out.push(value ? 'true' : 'false');
  else if (typeof value === 'number' || typeof value === 'bigint') out.push(String(value));
  else if (typeof value === 'string') out.push(JSON.stringify(value));
  else if (value instanceof IrFloat) out.push(Number.isFinite(value.value) ? formatFloat(value.value) : 'null');
  else if (Array.isArray(value)) {
    out.push('[');
    value.forEach((item, index) => {
      if (index > 0) out.push(', ');
      write(item, out);
    });
    out.push(']');
  } else {
    out.push('{');
    Object.keys(value)
      .sort()
      .forEach((key, index) => {
        if (index > 0) out.push(', ');
        out.push(JSON.stringify(key), ': ');
        write(value[key]!, out);
      });
    out.push('}');
  }
}
