import { createHmac, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The host's secret for MCP state it hands to clients, under CHAIN_HOME; every process of one home shares it. */
export const MCP_STATE_SECRET_FILE = 'mcp-state.secret';

/**
 * The HMAC key that seals the `requestState` of MCP 2026-07-28 multi-round-trip calls
 * (mcp-confirmations.ts). Derived from 32 random bytes kept in `<CHAIN_HOME>/mcp-state.secret`
 * (mode 0600, created once; `wx` so two processes starting together agree on one file), so
 * every `chain-mcp-http` process of the same home verifies what another minted, and a restart
 * keeps the confirmations in flight valid. The file never leaves the host: only the derived
 * key is used, and only to sign.
 */
export function mcpStateKey(home: string): Uint8Array {
  const file = path.join(home, MCP_STATE_SECRET_FILE);
  let secret: Buffer;
  try {
    secret = readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    mkdirSync(home, { recursive: true });
    try {
      writeFileSync(file, randomBytes(32), { flag: 'wx', mode: 0o600 });
    } catch (raced) {
      if ((raced as NodeJS.ErrnoException).code !== 'EEXIST') throw raced;
    }
    secret = readFileSync(file);
  }
  if (secret.length < 32) throw new Error(`${file} must hold at least 32 bytes; delete it to have a new one made`);
  return new Uint8Array(createHmac('sha256', secret).update('chainhost mcp requestState v1').digest());
}
