import nacl from 'tweetnacl';
import { asI64, asString } from './coerce.js';
import { VmError } from './errors.js';
import { sha256Hex, sha3Hex } from '../../chain/hashes.js';
import { VmDateTime, VmTimeDelta, VmTuple, type VmValue } from './values.js';

/** Syscalls the VM computes itself: time, hashing, Ed25519 (upstream interpreter_support.rs). */
type Kwargs = readonly (readonly [string, VmValue])[];

function optionalI64(args: readonly VmValue[], kwargs: Kwargs, index: number, name: string): bigint | undefined {
  if (index < args.length) return asI64(args[index]!);
  const kw = kwargs.find(([k]) => k === name);
  return kw ? asI64(kw[1]) : undefined;
}

function requiredI64(args: readonly VmValue[], kwargs: Kwargs, index: number, name: string): bigint {
  const v = optionalI64(args, kwargs, index, name);
  if (v === undefined) throw new VmError(`missing required argument '${name}'`);
  return v;
}

export function datetimeNew(args: readonly VmValue[], kwargs: Kwargs): VmValue {
  return VmDateTime.of(
    requiredI64(args, kwargs, 0, 'year'),
    requiredI64(args, kwargs, 1, 'month'),
    requiredI64(args, kwargs, 2, 'day'),
    optionalI64(args, kwargs, 3, 'hour') ?? 0n,
    optionalI64(args, kwargs, 4, 'minute') ?? 0n,
    optionalI64(args, kwargs, 5, 'second') ?? 0n,
    optionalI64(args, kwargs, 6, 'microsecond') ?? 0n,
  );
}

export function datetimeStrptime(args: readonly VmValue[], kwargs: Kwargs): VmValue {
  if (kwargs.length || args.length !== 2) throw new VmError('datetime.datetime.strptime() expects two positional arguments');
  return VmDateTime.strptime(asString(args[0]!), asString(args[1]!));
}

export function timedeltaNew(args: readonly VmValue[], kwargs: Kwargs): VmValue {
  return VmTimeDelta.of(
    optionalI64(args, kwargs, 0, 'weeks') ?? 0n,
    optionalI64(args, kwargs, 1, 'days') ?? 0n,
    optionalI64(args, kwargs, 2, 'hours') ?? 0n,
    optionalI64(args, kwargs, 3, 'minutes') ?? 0n,
    optionalI64(args, kwargs, 4, 'seconds') ?? 0n,
  );
}

function strictHex(text: string): Uint8Array {
  if (text.length % 2) throw new VmError('hash hex input must contain whole bytes');
  if (!/^[0-9a-fA-F]*$/.test(text)) throw new VmError('hash hex input must be unprefixed hexadecimal');
  return Uint8Array.from(Buffer.from(text, 'hex'));
}

function oneArg(args: readonly VmValue[], kwargs: Kwargs, name: string): string {
  if (kwargs.length || args.length !== 1) throw new VmError(`hashlib.${name}() expects one argument`);
  return asString(args[0]!);
}

export const hashSyscalls: Record<string, (args: readonly VmValue[], kwargs: Kwargs) => VmValue> = {
  'hash.sha3_256_text': (a, k) => sha3Hex(oneArg(a, k, 'sha3_text')),
  'hash.sha3_256_hex': (a, k) => sha3Hex(strictHex(oneArg(a, k, 'sha3_hex'))),
  'hash.sha256_text': (a, k) => sha256Hex(oneArg(a, k, 'sha256_text')),
  'hash.sha256_hex': (a, k) => sha256Hex(strictHex(oneArg(a, k, 'sha256_hex'))),
};

function lenientHex(text: string): Uint8Array | undefined {
  if (text.length % 2 || !/^[0-9a-fA-F]*$/.test(text)) return undefined;
  return Uint8Array.from(Buffer.from(text, 'hex'));
}

/** `crypto.verify(vk_hex, message, sig_hex)`: bad hex or signature → False; a wrong-length key raises. */
export function ed25519Verify(args: readonly VmValue[], kwargs: Kwargs): VmValue {
  if (kwargs.length || args.length !== 3) throw new VmError('crypto.verify() expects three positional arguments');
  const key = lenientHex(asString(args[0]!));
  const message = asString(args[1]!);
  const signature = lenientHex(asString(args[2]!));
  if (!key || !signature) return false;
  if (key.length !== 32) throw new VmError('invalid verify key length');
  if (signature.length !== 64) return false;
  try {
    return nacl.sign.detached.verify(Buffer.from(message, 'utf8'), signature, key);
  } catch {
    return false;
  }
}

export function keyIsValid(args: readonly VmValue[], kwargs: Kwargs): VmValue {
  if (kwargs.length || args.length !== 1) throw new VmError('crypto.key_is_valid() expects one argument');
  const key = asString(args[0]!);
  return key.length === 64 && /^[0-9a-fA-F]*$/.test(key);
}

export function optionEntry(v: readonly [string, string] | null): VmValue {
  return v ? new VmTuple([v[0], v[1]]) : null;
}
