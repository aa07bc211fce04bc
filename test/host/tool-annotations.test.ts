import assert from 'node:assert/strict';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT, type TestHost } from '../support/test-host.js';

/**
 * Issue #18 item 6: every built-in tool's MCP hints equal its row in the README table, and the
 * table follows the annotation rules by kind (local key and crypto tools are not destructive,
 * only transaction senders are).
 */

const RULES: Record<string, [boolean, boolean, boolean, boolean]> = {
  'chain read': [true, false, true, true],
  quote: [true, false, true, true],
  'dry run': [true, false, true, true],
  'plan (read)': [true, false, true, true],
  'live wait': [true, false, false, true],
  'local crypto read': [true, false, true, false],
  'local read': [true, false, true, false],
  'local key / crypto': [false, false, false, false],
  // A deployment is a transaction too: it spends the signer's funds on the fee and cannot be undone,
  // so a client should ask before it as before any send (issue #40).
  'sends a transaction': [false, true, false, true],
};

async function readmeTable(): Promise<Map<string, { kind: string; hints: boolean[] }>> {
  const text = await readFile(path.join(REPO_ROOT, 'README.md'), 'utf8');
  const block = /<!-- tool-annotations:start -->([\s\S]*?)<!-- tool-annotations:end -->/.exec(text);
  assert.ok(block, 'README has the tool annotations table');
  const rows = new Map<string, { kind: string; hints: boolean[] }>();
  for (const line of block[1]!.split('\n')) {
    const m = /^\| `([a-z_]+)` \| ([^|]+) \| (true|false) \| (true|false) \| (true|false) \| (true|false) \|$/.exec(line.trim());
    if (m) rows.set(m[1]!, { kind: m[2]!.trim(), hints: m.slice(3, 7).map((v) => v === 'true') });
  }
  return rows;
}

describe('tool annotations match the README table', function () {
  this.timeout(60_000);
  let t: TestHost;
  let home: string;

  before(async () => {
    const { bootTestHost } = await import('../support/test-host.js');
    home = await mkdtemp(path.join(os.tmpdir(), 'chainhost-annotations-'));
    t = await bootTestHost({
      home,
      plugins: { devnet: { listen: false, printAccounts: false }, wallet: {}, query: {}, crypto: {}, simulate: {}, dex: {}, bds: {} },
      tools: { unsafe: true },
    });
  });
  after(async () => {
    await t?.stop();
    await rm(home, { recursive: true, force: true });
  });

  it('the table follows the rules by kind', async () => {
    for (const [name, row] of await readmeTable()) {
      assert.ok(RULES[row.kind], `${name}: unknown kind "${row.kind}"`);
      assert.deepEqual(row.hints, RULES[row.kind], `${name} (${row.kind})`);
    }
  });

  it('every built-in tool has a title and exactly the hints of its row', async () => {
    const { annotationsOf } = await import('../../core/tools/tool.js');
    const table = await readmeTable();
    const tools = t.host.invoker.visible();
    assert.ok(tools.length >= 40, `${tools.length} tools`);
    for (const tool of tools) {
      const row = table.get(tool.name);
      assert.ok(row, `${tool.name} has a row in the README table`);
      const a = annotationsOf(tool);
      assert.ok(a.title.length > 0);
      assert.deepEqual([a.readOnlyHint, a.destructiveHint, a.idempotentHint, a.openWorldHint], row.hints, `${tool.name} (${row.kind})`);
    }
    for (const name of table.keys()) assert.ok(tools.some((tool) => tool.name === name), `README row ${name} names a tool that exists`);
  });
});
