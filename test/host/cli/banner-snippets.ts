import assert from 'node:assert/strict';
import type { HttpMcpServer, McpServersSnippet, StdioMcpServer } from '../../../host/cli/connect-banner.js';

/** The JSON blocks of a banner: lines from a `{` to a `}` in the first column, each parsed. */
export function jsonBlocks(text: string): unknown[] {
  const blocks: unknown[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== '{') continue;
    const end = lines.indexOf('}', i);
    assert.ok(end > i, `unterminated JSON block at line ${i}`);
    blocks.push(JSON.parse(lines.slice(i, end + 1).join('\n')));
    i = end;
  }
  return blocks;
}

/** The `mcpServers.chain` entries of a banner: the HTTP one when the tool server runs, and the stdio one. */
export function snippets(text: string): { http?: HttpMcpServer; stdio: StdioMcpServer } {
  const blocks = jsonBlocks(text) as Array<McpServersSnippet<HttpMcpServer | StdioMcpServer>>;
  const entries = blocks.map((b) => {
    assert.deepEqual(Object.keys(b), ['mcpServers']);
    assert.deepEqual(Object.keys(b.mcpServers), ['chain']);
    return b.mcpServers.chain!;
  });
  const http = entries.find((e): e is HttpMcpServer => 'url' in e);
  const stdio = entries.find((e): e is StdioMcpServer => 'command' in e);
  assert.ok(stdio, 'a stdio snippet');
  return { http, stdio };
}
