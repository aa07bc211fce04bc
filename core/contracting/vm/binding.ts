import { VmError, typeError } from './errors.js';
import type { CompiledFunction, Scope } from './compiled.js';
import type { VmInstance } from './instance.js';
import { VmDict, VmSet, VmTuple, pyStr, typeName, type VmValue } from './values.js';
import { VmDateTime, VmDecimal, VmTimeDelta } from './values.js';
import { VmBytes } from './values.js';

/** Binding call arguments to parameters, and `@export(typecheck=True)` checks (upstream texts). */

export function bindArguments(inst: VmInstance, fn: CompiledFunction, args: VmValue[], kwargs: [string, VmValue][]): Scope {
  const remainingKwargs = new Map<string, VmValue>();
  for (const [k, v] of kwargs) {
    if (remainingKwargs.has(k)) throw typeError(`__${fn.name}() got multiple values for keyword argument '${k}'`);
    remainingKwargs.set(k, v);
  }
  const bound: Scope = new Map();
  let position = 0;
  let vararg: string | null = null;
  let kwarg: string | null = null;
  for (const p of fn.params) {
    if (p.kind === 'positional_or_keyword') {
      if (position < args.length) {
        if (remainingKwargs.has(p.name)) throw typeError(`__${fn.name}() got multiple values for keyword argument '${p.name}'`);
        bound.set(p.name, args[position++]!);
        continue;
      }
    }
    if (p.kind === 'positional_or_keyword' || p.kind === 'keyword_only') {
      if (remainingKwargs.has(p.name)) {
        bound.set(p.name, remainingKwargs.get(p.name)!);
        remainingKwargs.delete(p.name);
        continue;
      }
      if (p.default) {
        bound.set(p.name, p.default(new Map(bound), inst));
        continue;
      }
      throw typeError(
        p.kind === 'keyword_only' ? `missing required keyword-only argument '${p.name}'` : `missing required argument '${p.name}'`,
      );
    }
    if (p.kind === 'vararg') vararg = p.name;
    else if (p.kind === 'kwarg') kwarg = p.name;
  }
  if (vararg !== null) {
    bound.set(vararg, new VmTuple(args.slice(position)));
    position = args.length;
  }
  if (position < args.length) throw typeError(`too many positional arguments for '${fn.name}'`);
  if (kwarg !== null) bound.set(kwarg, new VmDict([...remainingKwargs].map(([k, v]) => [k, v] as const)));
  else if (remainingKwargs.size) throw typeError(`unexpected keyword argument '${remainingKwargs.keys().next().value}'`);
  return bound;
}

interface Annotation {
  base: string;
  args: Annotation[];
}

function source(a: Annotation): string {
  return a.args.length ? `${a.base}[${a.args.map(source).join(', ')}]` : a.base;
}

export function parseAnnotation(text: string): Annotation | undefined {
  const t = text.trim();
  if (!t) return undefined;
  const open = t.indexOf('[');
  if (open < 0) return /[\],]/.test(t) ? undefined : { base: t, args: [] };
  const base = t.slice(0, open).trim();
  if (!base || !t.endsWith(']')) return undefined;
  let depth = 0;
  let close = -1;
  for (let i = open; i < t.length; i++) {
    if (t[i] === '[') depth++;
    else if (t[i] === ']') {
      depth--;
      if (depth < 0) return undefined;
      if (depth === 0) {
        close = i;
        break;
      }
    }
  }
  if (close !== t.length - 1) return undefined;
  const inner = t.slice(open + 1, close);
  const args: Annotation[] = [];
  let start = 0;
  depth = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i];
    if (c === '[') depth++;
    else if (c === ']') depth--;
    else if (c === ',' && depth === 0) {
      const a = parseAnnotation(inner.slice(start, i));
      if (!a) return undefined;
      args.push(a);
      start = i + 1;
    }
  }
  const tail = inner.slice(start).trim();
  if (!tail || depth !== 0) return undefined;
  const last = parseAnnotation(tail);
  if (!last) return undefined;
  args.push(last);
  return { base, args };
}

function label(a: Annotation): string {
  if (a.args.length) return source(a);
  if (['Any', 'datetime.datetime', 'datetime.timedelta', 'set', 'frozenset'].includes(a.base)) return a.base;
  return `<class '${a.base}'>`;
}

function checkName(v: VmValue): string {
  if (v === null) return 'NoneType';
  if (v instanceof VmDecimal) return 'ContractingDecimal';
  if (v instanceof VmDateTime) return 'Datetime';
  if (v instanceof VmTimeDelta) return 'Timedelta';
  return typeName(v);
}

function fail(where: string, a: Annotation, v: VmValue): VmError {
  return typeError(`${where} must be ${label(a)}, got ${checkName(v)}!`);
}

function keyRepr(k: VmValue): string {
  return typeof k === 'string' ? `'${k.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'` : pyStr(k);
}

function check(v: VmValue, a: Annotation, where: string): void {
  switch (a.base) {
    case 'Any': return;
    case 'list':
      if (!Array.isArray(v)) throw fail(where, a, v);
      if (a.args[0]) v.forEach((x, i) => check(x, a.args[0]!, `${where}[${i}]`));
      return;
    case 'dict':
      if (!(v instanceof VmDict)) throw fail(where, a, v);
      if (a.args.length >= 2) {
        for (const [k, x] of v.entries) {
          check(k, a.args[0]!, `${where} key`);
          check(x, a.args[1]!, `${where}[${keyRepr(k)}]`);
        }
      }
      return;
    case 'set': case 'frozenset':
      if (!(v instanceof VmSet) || v.frozen !== (a.base === 'frozenset')) throw fail(where, a, v);
      if (a.args[0]) v.items.forEach((x, i) => check(x, a.args[0]!, `${where}[${i}]`));
      return;
    case 'bool': if (typeof v !== 'boolean') throw fail(where, a, v); return;
    case 'int': if (typeof v !== 'bigint') throw fail(where, a, v); return;
    case 'float': if (typeof v !== 'bigint' && typeof v !== 'number' && !(v instanceof VmDecimal)) throw fail(where, a, v); return;
    case 'str': if (typeof v !== 'string') throw fail(where, a, v); return;
    case 'bytes': if (!(v instanceof VmBytes) || v.mutable) throw fail(where, a, v); return;
    case 'bytearray': if (!(v instanceof VmBytes) || !v.mutable) throw fail(where, a, v); return;
    case 'datetime.datetime': if (!(v instanceof VmDateTime)) throw fail(where, a, v); return;
    case 'datetime.timedelta': if (!(v instanceof VmTimeDelta)) throw fail(where, a, v); return;
  }
  throw new VmError(`unsupported type annotation '${source(a)}'`);
}

function parsed(text: string): Annotation {
  const a = parseAnnotation(text);
  if (!a) throw new VmError(`unsupported type annotation '${text}'`);
  return a;
}

export function checkArguments(fn: CompiledFunction, scope: Scope): void {
  for (const p of fn.params) {
    if (p.annotation === null || !scope.has(p.name)) continue;
    check(scope.get(p.name)!, parsed(p.annotation), `Argument '${p.name}'`);
  }
}

export function checkReturn(fn: CompiledFunction, value: VmValue): void {
  if (fn.returns !== null) check(value, parsed(fn.returns), 'Return value');
}
