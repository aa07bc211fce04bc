import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { compileContract } from '../../core/contracting/index.js';
import { EXPRESSION_GAS, GAS_CALL_DISPATCH, GAS_EVENT_EMIT, GAS_HASH_SCAN, GAS_LOOP_ITERATION, GAS_VARIABLE_GET, GAS_VARIABLE_SET, STATEMENT_GAS } from '../../core/contracting/vm/gas.js';
import { CROSS_CONTRACT_CALL_BASE, READ_COST_PER_BYTE, TRANSACTION_BYTES_COST_PER_BYTE, WRITE_COST_PER_BYTE } from '../../core/contracting/vm/meter.js';
import { bootDocStack, warmDryRuns, commandLines, commandShims, DEV0, fencedBlocks, readDoc, runFile, shellEnv, testedBlock, type DocStack } from '../support/doc-blocks.js';
import { REPO_ROOT } from '../support/test-host.js';
import { linkHost } from '../support/third-party-package.js';

const GUIDE = 'docs/contracts.md';
const TSX = pathToFileURL(path.join(REPO_ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

/** The raw gas each row of the guide's chi table names (its last cell), from the VM's own constants. */
const GAS: Record<string, number> = {
  call_dispatch: GAS_CALL_DISPATCH, call: EXPRESSION_GAS.call!, cross_contract: CROSS_CONTRACT_CALL_BASE,
  variable_get: GAS_VARIABLE_GET, variable_set: GAS_VARIABLE_SET, storage_set: STATEMENT_GAS.storage_set!,
  storage_mutate: STATEMENT_GAS.storage_mutate!, storage_get: EXPRESSION_GAS.storage_get!, hash_scan: GAS_HASH_SCAN,
  event_emit: GAS_EVENT_EMIT, read_byte: READ_COST_PER_BYTE, write_byte: WRITE_COST_PER_BYTE, assign: STATEMENT_GAS.assign!,
  if: STATEMENT_GAS.if!, loop_iteration: GAS_LOOP_ITERATION, name: EXPRESSION_GAS.name!, constant: EXPRESSION_GAS.constant!,
  bin_op: EXPRESSION_GAS.bin_op!, compare: EXPRESSION_GAS.compare!, dict: EXPRESSION_GAS.dict!, byte: TRANSACTION_BYTES_COST_PER_BYTE,
  // plugins/devnet/engine/vm/devnet-transaction.ts DEPLOYMENT_BASE_COST (reference: contracting-vm.md e.1).
  deploy: 5_000,
};

function section(text: string, name: string): string {
  const start = text.indexOf(`<!-- ${name}:start -->`);
  const end = text.indexOf(`<!-- ${name}:end -->`);
  assert.ok(start >= 0 && end > start, `${GUIDE} has the ${name} table`);
  return text.slice(start, end);
}

const tableRows = (text: string) => text.split('\n').filter((l) => /^\| /.test(l) && !/^\|[-| ]+\|$/.test(l)).slice(1).map((l) => l.split('|').slice(1, -1).map((c) => c.trim()));

/** The JSON lines a shell block printed (one answer per curl), each a JSON object without an error member. */
function answers(stdout: string): any[] {
  return stdout.split('\n').filter((l) => l.trim()).map((line) => {
    const json = JSON.parse(line);
    assert.equal(json.error, undefined, line.slice(0, 800));
    return json;
  });
}

describe(`${GUIDE}: every block runs as written`, () => {
  let guide: string;
  before(async () => { guide = await readDoc(GUIDE); });

  it('every code block of the guide is marked tested, and the README links the guide', async () => {
    for (const b of fencedBlocks(guide)) assert.ok(b.name, `${GUIDE} line ${b.line}: an unmarked ${b.lang} block`);
    assert.match(await readDoc('README.md'), /\(docs\/contracts\.md\)/);
  });

  it('the lint table lists exactly the compiler\'s codes', async () => {
    const lint = await readFile(path.join(REPO_ROOT, 'core/contracting/compiler/lint.ts'), 'utf8');
    const codes = [...new Set([...lint.matchAll(/'(E\d{3})'/g)].map((m) => m[1]!))].sort();
    assert.ok(codes.length >= 15, codes.join(' '));
    assert.deepEqual(tableRows(section(guide, 'lint-rules')).map((r) => r[0]).sort(), codes);
  });

  it('the chi table gives the VM\'s own figures', () => {
    const rows = tableRows(section(guide, 'gas-table'));
    assert.ok(rows.length >= 20);
    for (const [what, raw, key] of rows) {
      const name = /^`(\w+)`$/.exec(key ?? '')?.[1];
      assert.ok(name && name in GAS, `${what}: the row names no known figure (${key})`);
      assert.equal(Number(/[\d,]+/.exec(raw!)![0].replace(/,/g, '')), GAS[name], `${what}: ${raw}`);
    }
  });

  it('the steps compile as the chain compiles them; the refused one is refused with the codes the text names', () => {
    for (const name of ['escrow-state', 'escrow-event', 'escrow']) {
      const result = compileContract('con_escrow', testedBlock(guide, name).body + '\n');
      assert.ok(result.ok, `${name}: ${JSON.stringify(!result.ok && result.diagnostics)}`);
    }
    const refused = compileContract('con_refused', testedBlock(guide, 'lint-refused').body + '\n');
    assert.ok(!refused.ok);
    assert.deepEqual([...new Set(refused.diagnostics.map((d) => d.code))].sort(), ['xian.lint.E001', 'xian.lint.E002', 'xian.lint.E014']);
    assert.match(guide, /breaks three of them \(E001, E002 and E014\)/);
  });
});

/**
 * The guide on a devnet as `npm start` runs it (in-process): the set-up block as a user types it,
 * then each shell block in a shell with the set-up's variables, in the guide's order, and the MCP
 * and wire-form blocks through the MCP SDK's client and the guide's own script.
 */
describe(`${GUIDE}: the worked example on the devnet`, function () {
  this.timeout(300_000);
  let guide: string;
  let dir: string;
  let stack: DocStack;
  let env: Record<string, string>;
  let bin: string;

  /** Runs each command of a shell block of the guide (addresses and placeholders substituted) in the example's folder: one JSON answer per command. */
  const shell = async (name: string): Promise<any[]> => {
    const results: any[] = [];
    for (const command of commandLines(stack.substitute(testedBlock(guide, name).body))) {
      const { stdout } = await runFile('bash', ['-e', '-o', 'pipefail', '-c', command], { cwd: dir, env: shellEnv(bin, env), maxBuffer: 16 * 1024 * 1024 });
      results.push(...answers(stdout));
    }
    return results;
  };

  before(async function () {
    this.timeout(300_000);
    guide = await readDoc(GUIDE);
    dir = await mkdtemp(path.join(os.tmpdir(), 'contracts-guide-'));
    const home = path.join(dir, 'home');
    bin = await commandShims(dir);
    const setUp = commandLines(testedBlock(guide, 'setup').body);
    assert.deepEqual(setUp, commandLines(testedBlock(await readDoc('README.md'), 'deploy-setup').body), 'the guide starts as the README does');
    const { stdout } = await runFile('bash', ['-e', '-c', `${setUp[0]}\n${setUp[1]}\nprintf '\\n%s\\n%s\\n' "$CHAIN_KEYSTORE_PASSPHRASE" "$CHAIN_MCP_HTTP_TOKEN"`], {
      cwd: dir, env: shellEnv(bin, { CHAIN_HOME: home }),
    });
    const [passphrase, token] = stdout.split('\n').slice(-3, -1) as [string, string];
    env = { CHAIN_MCP_HTTP_TOKEN: token };
    stack = await bootDocStack({
      dir, home,
      env: { CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS: '1', CHAIN_MCP_HTTP_TOKEN: token },
      boot: { keystore: { passphrase: async () => passphrase } },
    });
    await writeFile(path.join(dir, 'escrow.py'), testedBlock(guide, 'escrow').body + '\n');
    await warmDryRuns(stack);
  });

  after(async () => {
    await stack?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('escrow-check: chain-vm compile writes the artifact; check_contract answers deployable with the methods and the chi', async () => {
    const [checked] = await shell('escrow-check');
    const artifact = JSON.parse(await readFile(path.join(dir, 'con_escrow.artifact.json'), 'utf8'));
    assert.equal(artifact.module_name, 'con_escrow');
    assert.equal(checked.result.compiles, true);
    assert.equal(checked.result.deployable, true, checked.result.deploy_error);
    assert.deepEqual(checked.result.methods.map((m: { name: string }) => m.name), ['deposit', 'release', 'refund', 'info']);
    assert.ok(Math.abs(Number(checked.result.chi_estimate) - 1_500) < 300, `"about 1,500": ${checked.result.chi_estimate}`);
  });

  it('deploy-http: deploy_contract as dev0, constructor_args from text', async () => {
    const [deployed] = await shell('deploy-http');
    assert.equal(deployed.result.success, true, JSON.stringify(deployed));
    assert.equal(String((await stack.h.host.invoker.call('get_state', { state_key: 'con_escrow.fee_rate' }, 'in-process')).state_value), '0.01');
  });

  it('escrow-estimate: the dry runs answer the chi of a transfer, and the failure path with its message', async () => {
    const [transfer, release] = await shell('escrow-estimate');
    assert.equal(transfer.result.status, 0, JSON.stringify(transfer));
    assert.ok(Number(transfer.result.chi_used) > 20 && Number(transfer.result.chi_used) < 100, `"about 50": ${transfer.result.chi_used}`);
    assert.equal(release.result.status, 1);
    assert.match(JSON.stringify(release.result), /nothing is held for this seller/);
  });

  it('deploy-mcp: the MCP tool deploy_contract with the guide\'s arguments', async () => {
    const source = await readFile(path.join(dir, 'escrow.py'), 'utf8');
    const args = JSON.parse(stack.substitute(testedBlock(guide, 'deploy-mcp').body.replace('"<contents of escrow.py>"', JSON.stringify(source))));
    const client = new Client({ name: 'contracts-guide', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(stack.h.url('/mcp')), { requestInit: { headers: { authorization: `Bearer ${env.CHAIN_MCP_HTTP_TOKEN}` } } }));
    try {
      const result = (await client.callTool({ name: 'deploy_contract', arguments: args }, undefined, { timeout: 120_000 })) as CallToolResult;
      assert.ok(!result.isError, JSON.stringify(result.content));
      assert.equal((result.structuredContent as { success: boolean }).success, true, JSON.stringify(result.structuredContent));
    } finally {
      await client.close();
    }
  });

  it('escrow-use: approve, deposit, read, release: 10 held, 9.9 paid after the 1 % fee, "a few hundred" chi for the deposit', async () => {
    const [approve, deposit, held, release] = await shell('escrow-use');
    for (const send of [approve, deposit, release]) assert.equal(send.result.success, true, JSON.stringify(send));
    assert.equal(String(deposit.result.result), '10');
    assert.ok(Number(deposit.result.chi_used) >= 100 && Number(deposit.result.chi_used) < 1000, `"a few hundred": ${deposit.result.chi_used}`);
    assert.equal(String(held.result.state_value), '10');
    assert.equal(String(release.result.result), '9.9');
  });

  it('deploy-wire: the guide\'s script signs and broadcasts submission.submit_contract in the wire form', async () => {
    await linkHost(dir);
    await writeFile(path.join(dir, 'deploy.mts'), stack.substitute(testedBlock(guide, 'deploy-wire').body));
    // `npx tsx deploy.mts`, from source (the checkout's tsx, chainhost linked into the folder).
    const { stdout } = await runFile(process.execPath, ['--import', TSX, '--conditions=chainhost-source', 'deploy.mts'], { cwd: dir });
    const out = JSON.parse(stdout.trim());
    assert.equal(out.check, 0, stdout);
    assert.equal(out.code, 0, stdout);
    const info = await stack.h.host.invoker.call('simulate_transaction', { address: DEV0.address, contract: 'con_escrow_wire', function: 'info', kwargs: { buyer: DEV0.address, seller: DEV0.address } }, 'in-process');
    assert.equal(info.status, 0, JSON.stringify(info));
    assert.match(JSON.stringify(info.result), /0\.01/);
  });
});
