/**
 * The one capability policy. `read` contributions are always available; `unsafe` ones (keys,
 * signing, submitting, decrypting) exist only when CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS is
 * truthy — otherwise they are absent from every listing and refused when called.
 */
export const CAPABILITIES = ['read', 'unsafe'] as const;
export type Capability = (typeof CAPABILITIES)[number];

export function isCapability(value: unknown): value is Capability {
  return value === 'read' || value === 'unsafe';
}

const TRUTHY = new Set(['1', 'true', 'yes', 'on']);
const FALSY = new Set(['', '0', 'false', 'no', 'off']);

/** Environment flag truthiness: 1/true/yes/on (any case) are true; 0/false/no/off/empty are false; anything else is an error. */
export function parseFlag(raw: string | undefined): boolean | undefined {
  if (raw === undefined) return undefined;
  const v = raw.trim().toLowerCase();
  if (TRUTHY.has(v)) return true;
  if (FALSY.has(v)) return false;
  return undefined;
}

export class CapabilityPolicy {
  constructor(readonly unsafeEnabled: boolean) {}

  allows(capability: Capability): boolean {
    return capability === 'read' || this.unsafeEnabled;
  }

  describe(): string {
    return this.unsafeEnabled ? 'read + unsafe (wallet, signing and submitting tools enabled)' : 'read only (unsafe tools hidden and refused)';
  }
}
