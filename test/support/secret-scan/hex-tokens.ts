/**
 * Key-shaped tokens in text: a hex run of exactly 64 characters (an Ed25519 seed, or a public
 * key, a hash...) or 128 (an expanded secret key seed‖public key, or a signature). Longer runs
 * (transaction payloads, blobs) are not tokens. Matching is case-insensitive; tokens come out
 * lowercase.
 */
const TOKEN = /(?<![0-9a-fA-F])(?:[0-9a-fA-F]{128}|[0-9a-fA-F]{64})(?![0-9a-fA-F])/g;
const LONGEST = 128;

export function hexTokens(text: string): string[] {
  const found = text.match(TOKEN);
  return found ? found.map((t) => t.toLowerCase()) : [];
}

function isHexCode(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
}

/**
 * Cuts a stream into pieces that can be scanned on their own: a hex run touching the end of a
 * chunk may go on in the next chunk, so it waits (at most LONGEST + 1 characters of it, which
 * is enough to know the run is too long to be a token). Memory per stream is that carry only.
 */
export class HexCarry {
  private carry = '';

  /** The text scannable now; the trailing hex run is held back. */
  take(chunk: string): string {
    const text = this.carry + chunk;
    let end = text.length;
    while (end > 0 && isHexCode(text.charCodeAt(end - 1))) end--;
    const tail = text.slice(end);
    this.carry = tail.length > LONGEST + 1 ? tail.slice(-(LONGEST + 1)) : tail;
    return text.slice(0, end);
  }

  /** The held-back run, at the end of the stream. */
  flush(): string {
    const rest = this.carry;
    this.carry = '';
    return rest;
  }
}
