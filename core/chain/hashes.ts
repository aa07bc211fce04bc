import { createHash } from 'node:crypto';

/**
 * Byte, hex and hash helpers shared by the chain primitives. Text is always hashed as its
 * UTF-8 bytes; text that cannot be UTF-8 (lone surrogates) is refused instead of being
 * silently replaced, because a replaced character would hash or sign different bytes.
 */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const HEX = /^[0-9a-fA-F]*$/;
const encoder = new TextEncoder();
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

/** UTF-8 bytes of `text`; throws on lone surrogates, which have no UTF-8 encoding. */
export function utf8Bytes(text: string): Uint8Array {
  if (hasLoneSurrogate(text)) throw new TypeError('text contains a lone UTF-16 surrogate and has no UTF-8 encoding');
  return encoder.encode(text);
}

/** Strict UTF-8 decoding (no replacement characters); returns null when the bytes are not UTF-8. */
export function utf8TextOrNull(bytes: Uint8Array): string | null {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    return null;
  }
}

/** Strict UTF-8 decoding that fails with Python's UnicodeDecodeError text, which the node reports. */
export function pythonUtf8Decode(bytes: Uint8Array): string {
  const text = utf8TextOrNull(bytes);
  if (text !== null) return text;
  const fail = (what: string, reason: string): never => { throw new RangeError(`'utf-8' codec can't decode ${what}: ${reason}`); };
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i]!;
    if (b < 0x80) { i++; continue; }
    const byteAt = `byte 0x${b.toString(16).padStart(2, '0')} in position ${i}`;
    let need = 0;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) { need = 2; if (b === 0xe0) lo = 0xa0; if (b === 0xed) hi = 0x9f; }
    else if (b >= 0xf0 && b <= 0xf4) { need = 3; if (b === 0xf0) lo = 0x90; if (b === 0xf4) hi = 0x8f; }
    else fail(byteAt, 'invalid start byte');
    for (let k = 1; k <= need; k++) {
      if (i + k >= bytes.length) fail(k === 1 ? byteAt : `bytes in position ${i}-${i + k - 1}`, 'unexpected end of data');
      const c = bytes[i + k]!;
      if (c < (k === 1 ? lo : 0x80) || c > (k === 1 ? hi : 0xbf)) fail(byteAt, 'invalid continuation byte');
    }
    i += need + 1;
  }
  throw new RangeError("'utf-8' codec can't decode the input");
}

export function bytesToHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/** Strict hex (even length, no prefix, either case) to bytes; `what` names the input in the error, never its value. */
export function hexToBytes(hex: string, what = 'hex string'): Uint8Array {
  if (hex.length % 2 !== 0 || !HEX.test(hex)) throw new TypeError(`${what} must be an even number of hex characters`);
  return new Uint8Array(Buffer.from(hex, 'hex'));
}

export function isHex(text: unknown, length?: number): text is string {
  return typeof text === 'string' && HEX.test(text) && (length === undefined ? text.length % 2 === 0 : text.length === length);
}

const PY_WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0b, 0x0c, 0x0d]);

function hexDigit(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  return -1;
}

/**
 * Python's `bytes.fromhex`: either case, ASCII whitespace allowed between (not inside) byte
 * pairs. The node decodes transaction bytes and contracts decode "hex" input this way, so the
 * devnet must accept and refuse exactly the same texts. Throws with Python's message.
 */
export function pythonFromHex(text: string): Uint8Array {
  const out = new Uint8Array(text.length >> 1);
  let n = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (PY_WHITESPACE.has(c)) { i++; continue; }
    const hi = hexDigit(c);
    if (hi < 0) throw new RangeError(`non-hexadecimal number found in fromhex() arg at position ${i}`);
    const lo = i + 1 < text.length ? hexDigit(text.charCodeAt(i + 1)) : -1;
    if (lo < 0) throw new RangeError(`non-hexadecimal number found in fromhex() arg at position ${i + 1}`);
    out[n++] = (hi << 4) | lo;
    i += 2;
  }
  return out.slice(0, n);
}

/*
 * SHA-256 and SHA3-256 go through OpenSSL (node:crypto): the pure-JS Keccak permutation took
 * ~15% of a committed devnet transfer (the execution hash of every transaction).
 */
/** SHA-256 digest of bytes. */
export function sha256(data: Uint8Array): Uint8Array {
  return createHash('sha256').update(data).digest();
}

/** SHA3-256 (FIPS 202) digest of bytes. */
export function sha3_256(data: Uint8Array): Uint8Array {
  return createHash('sha3-256').update(data).digest();
}

function asBytes(data: Uint8Array | string): Uint8Array {
  return typeof data === 'string' ? utf8Bytes(data) : data;
}

/** Lowercase hex SHA-256 of bytes or of the UTF-8 of text. */
export function sha256Hex(data: Uint8Array | string): string {
  return bytesToHex(sha256(asBytes(data)));
}

/** Lowercase hex SHA3-256 (FIPS 202, not Keccak-256) of bytes or of the UTF-8 of text. */
export function sha3Hex(data: Uint8Array | string): string {
  return bytesToHex(sha3_256(asBytes(data)));
}

function contractInput(text: string): Uint8Array {
  try {
    return pythonFromHex(text);
  } catch {
    return utf8Bytes(text);
  }
}

/** Contract `hashlib.sha3(s)`: text that parses as hex is hashed as those bytes, otherwise as UTF-8. */
export function contractSha3(text: string): string {
  return bytesToHex(sha3_256(contractInput(text)));
}

/** Contract `hashlib.sha256(s)`, with the same hex-or-text rule as `contractSha3`. */
export function contractSha256(text: string): string {
  return bytesToHex(sha256(contractInput(text)));
}
