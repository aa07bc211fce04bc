import { VmDecimal } from './decimal.js';
import { VmDateTime, VmTimeDelta } from './datetime.js';
import { TextBuilder } from './alloc.js';
import { rustFloatDebug } from './float-format.js';

/**
 * The VM's value model (xian-vm-core `VmValue`), mapped onto JS so the common cases stay
 * primitives: None = null, bool = boolean, int = bigint, float = number, str = string,
 * list = readonly array. Every value is immutable: an operation that "mutates" (append, `x[i] = v`)
 * builds a new value and writes it back, which gives the chain's copy semantics (nothing is
 * ever shared between two names) without copying on every read.
 */
export type VmValue =
  | null
  | boolean
  | bigint
  | number
  | string
  | VmDecimal
  | VmDateTime
  | VmTimeDelta
  | VmBytes
  | VmSet
  | VmList
  | VmTuple
  | VmDict
  | VmContractHandle
  | VmStorageRef
  | VmEventRef
  | VmBuiltin
  | VmFunctionRef
  | VmTypeMarker
  | VmException;

export type VmList = readonly VmValue[];

export class VmTuple {
  constructor(readonly items: readonly VmValue[]) {}
}

/** bytes or bytearray (`mutable`). */
export class VmBytes {
  constructor(readonly data: Uint8Array, readonly mutable: boolean) {}
}

/** set or frozenset, kept de-duplicated and sorted (see collections.ts `normalizeSetItems`). */
export class VmSet {
  constructor(readonly items: readonly VmValue[], readonly frozen: boolean) {}
}

/** Ordered (key, value) pairs; a literal may hold a key twice (lookups find the first). */
export class VmDict {
  constructor(readonly entries: readonly (readonly [VmValue, VmValue])[]) {}
}

export class VmContractHandle {
  constructor(readonly module: string, readonly origin: string) {}
}

export class VmStorageRef {
  constructor(readonly binding: string, readonly storageType: string) {}
}

export class VmEventRef {
  constructor(readonly binding: string, readonly eventName: string, readonly params: VmValue) {}
}

export class VmBuiltin {
  constructor(readonly name: string) {}
}

export class VmFunctionRef {
  constructor(readonly name: string) {}
}

export class VmTypeMarker {
  constructor(readonly name: string) {}
}

export class VmException {
  constructor(readonly name: string, readonly args: readonly VmValue[]) {}

  pythonRepr(): string {
    if (!this.args.length) return `${this.name}()`;
    return `${this.name}(${this.args.map(exceptionArgRepr).join(', ')})`;
  }
}

export { VmDecimal, VmDateTime, VmTimeDelta };

export function isList(v: VmValue): v is VmList {
  return Array.isArray(v);
}

export function typeName(v: VmValue): string {
  if (v === null) return 'none';
  switch (typeof v) {
    case 'boolean': return 'bool';
    case 'bigint': return 'int';
    case 'number': return 'float';
    case 'string': return 'str';
  }
  if (Array.isArray(v)) return 'list';
  if (v instanceof VmDecimal) return 'decimal';
  if (v instanceof VmDict) return 'dict';
  if (v instanceof VmTuple) return 'tuple';
  if (v instanceof VmDateTime) return 'datetime';
  if (v instanceof VmTimeDelta) return 'timedelta';
  if (v instanceof VmBytes) return v.mutable ? 'bytearray' : 'bytes';
  if (v instanceof VmSet) return v.frozen ? 'frozenset' : 'set';
  if (v instanceof VmContractHandle) return 'contract_handle';
  if (v instanceof VmStorageRef) return 'storage_ref';
  if (v instanceof VmEventRef) return 'event_ref';
  if (v instanceof VmBuiltin) return 'builtin';
  if (v instanceof VmFunctionRef) return 'function_ref';
  if (v instanceof VmTypeMarker) return 'type_marker';
  return 'exception';
}

export function truthy(v: VmValue): boolean {
  if (v === null) return false;
  switch (typeof v) {
    case 'boolean': return v;
    case 'bigint': return v !== 0n;
    case 'number': return v !== 0;
    case 'string': return v.length > 0;
  }
  if (Array.isArray(v)) return v.length > 0;
  if (v instanceof VmDecimal) return !v.isZero();
  if (v instanceof VmDict) return v.entries.length > 0;
  if (v instanceof VmTuple) return v.items.length > 0;
  if (v instanceof VmTimeDelta) return v.seconds !== 0n;
  if (v instanceof VmBytes) return v.data.length > 0;
  if (v instanceof VmSet) return v.items.length > 0;
  return true;
}

/** Python's escape of each byte inside `b'…'`. */
const BYTE_ESCAPES: readonly string[] = Array.from({ length: 256 }, (_, b) => {
  if (b === 0x5c) return '\\\\';
  if (b === 0x27) return "\\'";
  if (b === 0x0a) return '\\n';
  if (b === 0x0d) return '\\r';
  if (b === 0x09) return '\\t';
  if (b >= 0x20 && b <= 0x7e) return String.fromCharCode(b);
  return `\\x${b.toString(16).padStart(2, '0')}`;
});

function bytesBody(data: Uint8Array, out: TextBuilder): void {
  const CHUNK = 8192;
  for (let start = 0; start < data.length; start += CHUNK) {
    let piece = '';
    const end = Math.min(data.length, start + CHUNK);
    for (let i = start; i < end; i++) piece += BYTE_ESCAPES[data[i]!]!;
    out.push(piece);
  }
}

/**
 * The VM's `str()` (upstream `python_repr`): like Python's str, except that strings inside
 * containers are not quoted (`str(['a'])` is `[a]`), floats print as Rust `{:?}` and decimals in
 * engineering notation. Built under the string cap: a container holding many large values
 * (or itself many times over) is refused when its text passes the cap, before that text exists.
 */
export function pyStr(v: VmValue): string {
  if (typeof v === 'string') return v;
  const out = new TextBuilder();
  render(v, out);
  return out.done();
}

function renderItems(items: readonly VmValue[], out: TextBuilder): void {
  for (let i = 0; i < items.length; i++) {
    if (i) out.push(', ');
    render(items[i]!, out);
  }
}

function render(v: VmValue, out: TextBuilder): void {
  if (v === null) return out.push('None');
  switch (typeof v) {
    case 'boolean': return out.push(v ? 'True' : 'False');
    case 'bigint': return out.push(v.toString());
    case 'number': return out.push(rustFloatDebug(v));
    case 'string': return out.push(v);
  }
  if (Array.isArray(v)) {
    out.push('[');
    renderItems(v, out);
    return out.push(']');
  }
  if (v instanceof VmDecimal) return out.push(v.pythonStr());
  if (v instanceof VmDict) {
    out.push('{');
    v.entries.forEach(([k, x], i) => {
      if (i) out.push(', ');
      render(k, out);
      out.push(': ');
      render(x, out);
    });
    return out.push('}');
  }
  if (v instanceof VmTuple) {
    out.push('(');
    renderItems(v.items, out);
    return out.push(v.items.length === 1 ? ',)' : ')');
  }
  if (v instanceof VmDateTime || v instanceof VmTimeDelta) return out.push(v.toString());
  if (v instanceof VmBytes) {
    out.push(v.mutable ? "bytearray(b'" : "b'");
    bytesBody(v.data, out);
    return out.push(v.mutable ? "')" : "'");
  }
  if (v instanceof VmSet) {
    if (!v.items.length) return out.push(v.frozen ? 'frozenset()' : 'set()');
    out.push(v.frozen ? 'frozenset({' : '{');
    renderItems(v.items, out);
    return out.push(v.frozen ? '})' : '}');
  }
  if (v instanceof VmContractHandle) return out.push(`<contract:${v.module}>`);
  if (v instanceof VmStorageRef) return out.push(`<storage:${v.binding}>`);
  if (v instanceof VmEventRef) return out.push(`<event:${v.eventName}>`);
  if (v instanceof VmBuiltin) return out.push(`<builtin:${v.name}>`);
  if (v instanceof VmFunctionRef) return out.push(`<function:${v.name}>`);
  if (v instanceof VmTypeMarker) return out.push(v.name);
  return out.push((v as VmException).pythonRepr());
}

/** A string quoted the way exception and assertion messages show it: `'it\'s'`. */
export function quotedMessage(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function exceptionArgRepr(v: VmValue): string {
  return typeof v === 'string' ? quotedMessage(v) : pyStr(v);
}
