import { parseJsonExact } from './json-parser.js';
import { PAYLOAD_KEYS } from './transaction.js';

/**
 * Texts whose raw Ed25519 signature the chain would take as authority to move value, so that
 * no message-signing path can produce one (the one place: signRawMessage refuses them, and the
 * transaction signer is the only other caller of a key). Decided from the text alone, for every
 * key, whether or not it has a spending policy:
 *
 * - **A transaction payload.** The node verifies a transaction's signature over the canonical
 *   JSON of the seven payload keys (transactions.md §3); the legacy node verified the payload's
 *   exact JSON text as received, in any key order and spacing, with `stamps_supplied` for
 *   `chi_supplied` (§6). So every text that parses (as the node's `json.loads` would) to an
 *   object with exactly either key set is refused — whatever its values, spacing, key order or
 *   duplicate keys: a superset of the byte strings either node verifies as a payload.
 * - **An XSC002 permit** (contracts.md §7.2): `<owner>:<spender>:<value>:<YYYY-MM-DD HH:MM:SS>:<token>:<chain_id>`,
 *   which sets an allowance of the owner's tokens for the spender without a transaction.
 */
const LEGACY_PAYLOAD_KEYS = PAYLOAD_KEYS.map((k) => (k === 'chi_supplied' ? 'stamps_supplied' : k));
const PAYLOAD_KEY_SETS = [PAYLOAD_KEYS, LEGACY_PAYLOAD_KEYS].map((keys) => [...keys].sort().join('\n'));
const PERMIT = /^[0-9a-fA-F]{64}:[\s\S]*:\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}:[A-Za-z_][A-Za-z0-9_]*:[\s\S]*$/;

export type ValueMovingRule = 'transaction_payload' | 'xsc002_permit';

export interface ValueMovingText {
  rule: ValueMovingRule;
  /** Says what the text is and what to use instead. */
  message: string;
}

function isPayloadObject(text: string): boolean {
  // JSON text of an object starts with "{" after optional whitespace; anything else is not a payload.
  if (!/^\s*\{/.test(text)) return false;
  let value: unknown;
  try {
    value = parseJsonExact(text);
  } catch {
    return false; // the node cannot parse it either
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return PAYLOAD_KEY_SETS.includes(Object.keys(value).sort().join('\n'));
}

/** The rule `text` breaks, or null when a raw signature over it authorises nothing on chain. */
export function valueMovingText(text: string): ValueMovingText | null {
  if (isPayloadObject(text)) {
    return {
      rule: 'transaction_payload',
      message: 'the message is a transaction payload (a JSON object with the payload keys chain_id, chi_supplied or stamps_supplied, contract, function, kwargs, nonce, sender), and its signature would be a valid transaction that skips the spending policy and the confirmation. Send transactions with send_transaction or send_tokens; sign text with envelope: true for a wallet-style signed message',
    };
  }
  if (PERMIT.test(text)) {
    return {
      rule: 'xsc002_permit',
      message: 'the message has the form of an XSC002 permit (<owner>:<spender>:<value>:<deadline>:<token>:<chain_id>), and its signature would grant the spender an allowance of the owner\'s tokens without a transaction, the spending policy or the confirmation. Grant allowances with send_transaction (approve); sign text with envelope: true for a wallet-style signed message',
    };
  }
  return null;
}

/** A raw signature refused because of what the text would authorise on chain. */
export class ValueMovingTextError extends Error {
  constructor(readonly found: ValueMovingText) {
    super(`refused to sign (rule ${found.rule}): ${found.message}`);
    this.name = 'ValueMovingTextError';
  }
}
