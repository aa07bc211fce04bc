/**
 * The one legitimate place for a private key in output: the answer of a wallet tool whose
 * contract is to hand a new or imported key to its owner (reference/mcp.md). Exactly those
 * answers are left out of the scan — found by the HTTP route `POST /tools/<name>` or by the MCP
 * `tools/call` request they answer — and nothing else.
 */
export const KEY_RETURNING_TOOLS: ReadonlySet<string> = new Set(['create_wallet', 'create_wallet_from_private_key', 'create_hd_wallet', 'create_hd_wallet_from_mnemonic']);

export function pathOf(url: string | undefined): string {
  const raw = (url ?? '').split('?')[0]!;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** `POST /tools/create_wallet` and its siblings on the HTTP tool API. */
export function isKeyToolRoute(method: string | undefined, url: string | undefined): boolean {
  const m = /^\/tools\/([^/]+)$/.exec(pathOf(url));
  return method === 'POST' && m !== null && KEY_RETURNING_TOOLS.has(m[1]!);
}

/** The ids of the JSON-RPC `tools/call` requests of key-returning tools in a request body (one message or a batch). */
export function keyToolCallIds(body: string): Array<string | number> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  const ids: Array<string | number> = [];
  for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
    if (!message || typeof message !== 'object') continue;
    const { method, params, id } = message as { method?: unknown; params?: { name?: unknown; arguments?: { store_as?: unknown } }; id?: unknown };
    // With store_as the key stays in the keystore and the answer is the address alone: scanned like any other.
    if (params?.arguments?.store_as !== undefined) continue;
    if (method === 'tools/call' && typeof params?.name === 'string' && KEY_RETURNING_TOOLS.has(params.name) && (typeof id === 'string' || typeof id === 'number')) ids.push(id);
  }
  return ids;
}

/**
 * MCP over stdio, seen from the client side of a child process: the requests written to its
 * stdin name the tool, the response lines on its stdout carry the same id. A response line
 * answering a key-returning call is skipped, every other line is scanned.
 */
export class StdioKeyToolFilter {
  private readonly pending = new Set<string>();
  private partial = '';

  /** Notes a chunk written to the child's stdin (newline-delimited JSON-RPC). */
  sent(chunk: string): void {
    const lines = (this.partial + chunk).split('\n');
    this.partial = lines.pop()!;
    if (this.partial.length > 1_000_000) this.partial = '';
    for (const line of lines) {
      if (line.includes('tools/call')) for (const id of keyToolCallIds(line)) this.pending.add(JSON.stringify(id));
    }
  }

  /** Whether a stdout line is the answer to a key-returning call (and forgets that call). */
  answersKeyTool(line: string): boolean {
    if (this.pending.size === 0 || !line.includes('"id"')) return false;
    let message: { id?: unknown; result?: unknown; error?: unknown };
    try {
      message = JSON.parse(line);
    } catch {
      return false;
    }
    // Only responses: the server's own requests to the client number their ids separately.
    if (!message || typeof message !== 'object' || !('result' in message || 'error' in message)) return false;
    const key = JSON.stringify(message.id);
    return key !== undefined && this.pending.delete(key);
  }
}
