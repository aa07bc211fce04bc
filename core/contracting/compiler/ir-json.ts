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
  return write(value);
}

/** Sorted key order per key list, and each key's quoted form: IR objects come in a few dozen shapes. */
const sortedKeysByShape = new Map<string, string[]>();
const quotedKeys = new Map<string, string>();

function sortedKeys(value: IrObject): string[] {
  const keys = Object.keys(value);
  const shape = keys.join(',');
  let sorted = sortedKeysByShape.get(shape);
  if (!sorted) {
    sorted = [...keys].sort();
    if (sortedKeysByShape.size < 1024) sortedKeysByShape.set(shape, sorted);
  }
  return sorted;
}

function quotedKey(key: string): string {
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    quoted = `${JSON.stringify(key)}: `;
    if (quotedKeys.size < 1024) quotedKeys.set(key, quoted);
  }
  return quoted;
}

function write(value: IrValue): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean': return value ? 'true' : 'false';
    case 'number': case 'bigint': return String(value);
    case 'string': return JSON.stringify(value);
    default: break;
  }
  if (value instanceof IrFloat) return Number.isFinite(value.value) ? formatFloat(value.value) : 'null';
  let out: string;
  if (Array.isArray(value)) {
    out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ', ';
      out += write(value[i]!);
    }
    return `${out}]`;
  }
  const keys = sortedKeys(value);
  out = '{';
  for (let i = 0; i < keys.length; i++) {
    if (i > 0) out += ', ';
    out += quotedKey(keys[i]!) + write(value[keys[i]!]!);
  }
  return `${out}}`;
}
