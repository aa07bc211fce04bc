import { VmError } from './errors.js';
import { MAX_HASH_DIMENSIONS, MAX_STORAGE_KEY_SIZE } from './limits.js';
import { rustFloatDebug } from './float-format.js';
import { utf8Length } from './metering-json.js';
import { VmTuple, VmTypeMarker, pyStr, type VmValue } from './values.js';

/** Storage keys: `<contract>.<binding>` and `<contract>.<binding>:<k1>:<k2>` (upstream rules). */
const DELIMITER = ':';
const SEPARATOR = '.';

export function storageKeyPart(v: VmValue): string {
  let rendered: string;
  if (typeof v === 'string') rendered = v;
  else if (typeof v === 'bigint') rendered = v.toString();
  else if (v === true) rendered = 'True';
  else if (v === false) rendered = 'False';
  else if (typeof v === 'number') rendered = rustFloatDebug(v);
  else if (v === null) rendered = 'None';
  else if (v instanceof VmTypeMarker) rendered = v.name;
  else rendered = pyStr(v);
  if (rendered.includes(DELIMITER)) throw new VmError('Illegal delimiter in key.');
  if (rendered.includes(SEPARATOR)) throw new VmError('Illegal separator in key.');
  return rendered;
}

const NOT_PLAIN = /[:.\u0080-\uffff]/;

let lastPlain = '';

export function normalizeHashKey(v: VmValue): string {
  if (typeof v === 'string') {
    // One access normalizes the same key several times (read, host lookup, write): remember the last.
    if (v === lastPlain) return v;
    if (v.length <= MAX_STORAGE_KEY_SIZE && !NOT_PLAIN.test(v)) {
      lastPlain = v;
      return v;
    }
  }
  let normalized: string;
  if (v instanceof VmTuple) {
    if (v.items.length > MAX_HASH_DIMENSIONS) {
      throw new VmError(`Too many dimensions (${v.items.length}) for hash. Max is ${MAX_HASH_DIMENSIONS}`);
    }
    normalized = v.items.map(storageKeyPart).join(DELIMITER);
  } else normalized = storageKeyPart(v);
  const length = utf8Length(normalized);
  if (length > MAX_STORAGE_KEY_SIZE) throw new VmError(`Key is too long (${length}). Max is ${MAX_STORAGE_KEY_SIZE}.`);
  return normalized;
}

export function normalizeHashPrefix(values: readonly VmValue[]): string {
  return normalizeHashKey(new VmTuple(values));
}

export function prefixMatches(storageKey: string, prefix: string): boolean {
  return !prefix || storageKey === prefix || storageKey.startsWith(prefix + DELIMITER);
}

export function foreignStorageKey(contract: string, name: string): string {
  return `${contract}${DELIMITER}${name}`;
}

export function splitForeignKey(key: string): [string, string] {
  const i = key.indexOf(DELIMITER);
  if (i < 0) throw new VmError(`invalid foreign storage key '${key}'`);
  return [key.slice(0, i), key.slice(i + 1)];
}

export function variableStorageKey(contract: string, binding: string): string {
  return `${contract}${SEPARATOR}${binding}`;
}

export function hashStorageKey(contract: string, binding: string, key: VmValue): string {
  return hashStorageKeyFromNormalized(contract, binding, normalizeHashKey(key));
}

export function hashStorageKeyFromNormalized(contract: string, binding: string, normalized: string): string {
  return `${contract}${SEPARATOR}${binding}${DELIMITER}${normalized}`;
}
