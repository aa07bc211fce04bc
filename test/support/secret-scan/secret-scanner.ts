import { HexCarry, hexTokens } from './hex-tokens.js';
import { confirmedPublicKey, screenPublicKey } from './public-keys.js';

/** Where text came from, computed only when it holds a token not seen before. */
export type Source = string | (() => string);

export interface KeyLeak {
  /** The key, masked: first and last four hex characters. */
  masked: string;
  /** Its public key (the address): public, shown in full. */
  publicKey: string;
  /** Where the key was first seen: the test and the stream or route. */
  source: string;
  /** Why it counts: its public key appeared in the output too, or it is a dev account, or it carries its own public key (seed‖pub). */
  reason: string;
}

export interface TokenStream {
  write(chunk: string): void;
  end(): void;
}

/**
 * Collects the distinct key-shaped tokens of everything it is fed (with the first place each
 * was seen), never the text itself, so memory grows with distinct tokens, not with output.
 * At the end, `leaks()` derives each 64-hex token's public key and reports the ones whose
 * public identity is also known: a private key printed next to its own address.
 */
export class SecretScanner {
  private readonly tokens = new Map<string, number>();
  private readonly sources: string[] = [];
  private readonly sourceIds = new Map<string, number>();
  private textScanned = 0;

  /** Scans one complete text (a WebSocket message, a whole body). */
  scan(text: string, source: Source): void {
    this.textScanned += text.length;
    const found = hexTokens(text);
    if (found.length === 0) return;
    let id: number | undefined;
    for (const token of found) {
      if (this.tokens.has(token)) continue;
      id ??= this.sourceId(typeof source === 'function' ? source() : source);
      this.tokens.set(token, id);
    }
  }

  /** A stream fed in chunks; tokens split across chunks are found. */
  stream(source: Source): TokenStream {
    const carry = new HexCarry();
    return {
      write: (chunk) => this.scan(carry.take(chunk), source),
      end: () => this.scan(carry.flush(), source),
    };
  }

  has(token: string): boolean {
    return this.tokens.has(token.toLowerCase());
  }

  get stats(): { tokens: number; sources: number; charsScanned: number } {
    return { tokens: this.tokens.size, sources: this.sources.length, charsScanned: this.textScanned };
  }

  /**
   * Private keys next to their public identity: a 64-hex token whose public key is another
   * token of the output or one of `knownIdentities` (dev accounts), or a 128-hex token that is
   * seed‖public key.
   */
  leaks(knownIdentities: Iterable<string> = []): KeyLeak[] {
    const known = new Set([...knownIdentities].map((a) => a.toLowerCase()));
    const found: KeyLeak[] = [];
    for (const [token, sourceId] of this.tokens) {
      const seed = token.slice(0, 64);
      const publicKey = screenPublicKey(seed);
      let reason: string | undefined;
      if (token.length === 128 && token.slice(64) === publicKey) reason = 'an expanded secret key (seed‖public key)';
      else if (known.has(publicKey)) reason = 'the private key of a dev account';
      else if (this.tokens.has(publicKey)) {
        const seenAt = this.tokens.get(publicKey)!;
        reason = seenAt === sourceId ? 'its public key appears in the same place' : `its public key appears too, first in ${this.sources[seenAt]}`;
      }
      if (!reason || confirmedPublicKey(seed) !== publicKey) continue;
      found.push({ masked: maskKey(token), publicKey, source: this.sources[sourceId]!, reason });
    }
    return found;
  }

  private sourceId(label: string): number {
    let id = this.sourceIds.get(label);
    if (id === undefined) {
      id = this.sources.push(label) - 1;
      this.sourceIds.set(label, id);
    }
    return id;
  }
}

export function maskKey(key: string): string {
  return `${key.slice(0, 4)}…${key.slice(-4)} (${key.length} hex)`;
}
