import { z } from 'zod';
import { KeyFormatError, normalizePrivateKey } from '../chain/keys.js';
import { shownInput } from './shown-input.js';

/**
 * Tool input schemas for what names things on the chain (transactions.md §1.2): addresses and
 * private keys (64 hex), transaction hashes, contract and function names (identifiers), state
 * keys and key prefixes. A private key's message never contains the key.
 */

const IDENTIFIER = /^[a-zA-Z][a-zA-Z0-9_]*$/;
/** The chain's submission limit for a contract name (transactions.md §1.2); applied to every name. */
export const MAX_NAME_LENGTH = 255;

function hexNormalized(value: string): string {
  const t = value.trim();
  return (t.startsWith('0x') || t.startsWith('0X') ? t.slice(2) : t).toLowerCase();
}

/** 64 hex characters, optional 0x, any case: `refused` words the issue; `form` gives the stored case. */
function hex64(refused: (value: string, hex: string) => string, form: (hex: string) => string) {
  return z
    .string()
    .max(200)
    .transform((value, ctx) => {
      const hex = hexNormalized(value);
      if (/^[0-9a-f]{64}$/.test(hex)) return form(hex);
      ctx.addIssue({ code: 'custom', message: refused(value, hex) });
      return z.NEVER;
    });
}

/** An account address (Ed25519 public key): 64 hex, optional 0x, any case → lowercase. */
export const addressSchema = hex64((_value, hex) => `must be an address: 64 hex characters (an Ed25519 public key); got ${hex.length} characters`, (hex) => hex)
  .describe('64-hex address');

/**
 * A private key (32-byte Ed25519 seed as 64 hex, optional 0x) → lowercase hex. Errors say what
 * is wrong and, at most, the length; the key itself is never echoed or logged.
 */
export const privateKeySchema = z
  .string()
  .max(200)
  .transform((value, ctx) => {
    try {
      return normalizePrivateKey(value);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: err instanceof KeyFormatError ? err.message : 'private key must be 64 hex characters' });
      return z.NEVER;
    }
  })
  .describe('64-hex private key, used for this call only, never stored or echoed');

/** A CometBFT tx hash: 64 hex, optional 0x → uppercase (the form nodes and BDS index). */
export const txHashSchema = hex64((value) => `must be a transaction hash: 64 hex characters (optional 0x); got ${shownInput(value)}`, (hex) => hex.toUpperCase())
  .describe('64-hex transaction hash');

// ---- names and state keys --------------------------------------------------------------------

function identifier(what: string, example: string) {
  return z
    .string()
    .max(MAX_NAME_LENGTH, `${what} must be at most ${MAX_NAME_LENGTH} characters`)
    .refine((v) => IDENTIFIER.test(v), {
      error: (issue) => `${what} must be an identifier (a letter, then letters, digits or _), like ${example}; got ${shownInput(String(issue.input))}`,
    });
}

/** A contract name by the chain's payload rule: `^[a-zA-Z][a-zA-Z0-9_]*$`, at most 255 characters. */
export const contractNameSchema = identifier('contract name', '"currency" or "con_token"').describe('e.g. currency or con_token');

/** A function name by the chain's payload rule. */
export const functionNameSchema = identifier('function name', '"transfer"').describe('contract function name, e.g. transfer');

/**
 * A full state key `<contract>.<variable>[:<key_part>…]` as `/get/<key>` takes it. Names may
 * start with `_` (`__n.<address>:`, `con_x.__source__`); key parts may hold anything but `/`,
 * which the node's path grammar splits on.
 */
export const stateKeySchema = z
  .string()
  .min(3)
  .max(1024)
  .refine((v) => /^[A-Za-z_][A-Za-z0-9_]*\.[A-Za-z_][A-Za-z0-9_]*(:[^/]*)*$/.test(v), {
    error: (issue) =>
      `must be a state key <contract>.<variable>[:<key>…] without "/", like currency.balances:<address>; got ${shownInput(String(issue.input))}`,
  })
  .describe('state key: <contract>.<variable>[:<key>[:<key>…]], e.g. currency.balances:<address>');

/** A key prefix for `/keys/<prefix>`: starts with a contract name; no `/`. */
export const stateKeyPrefixSchema = z
  .string()
  .min(1)
  .max(1024)
  .refine((v) => /^[A-Za-z_][A-Za-z0-9_]*(\.[^/]*)?$/.test(v), {
    error: (issue) => `must be a state key prefix starting with a contract name and without "/", like currency.balances; got ${shownInput(String(issue.input))}`,
  })
  .describe('state key prefix, e.g. currency.balances (plain string prefix; include ":" to match whole key parts)');
