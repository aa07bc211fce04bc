import assert from 'node:assert/strict';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { parseJsonExact } from '../../../core/chain/canonical-json.js';
import type { ChainNode } from '../../../core/chain/node.js';
import { compileContract } from '../../../core/contracting/index.js';
import { CoreTokens } from '../../../core/core-tokens.js';
import { BdsTokens } from '../../../plugins/bds/index.js';
import { pgliteTemplateDir } from '../../support/databases.js';
import { LEDGER_SOURCE } from '../../support/ledger-contract.js';
import { postJson, type TestHost } from '../../support/test-host.js';
import { devAccount, devnetConfig, mcpCaller, type ToolCaller } from '../wallet/chain-tool-kit.js';

/**
 * Issue 28, "Done when": a contract of our own (test/support/ledger-contract.ts) deployed with
 * deploy_contract over MCP (the SDK client, in-process transport) and then called; BDS must
 * hold its rows — the deployment (submission.submit_contract), the call's events with their
 * indexed fields and the state writes of both — exactly as the node executed them, through the
 * BDS query paths, the query plugin's indexed-read tools and GraphQL alike. The expected values
 * come from the contract's source and the call's arguments, and are checked against the
 * receipts the node answered.
 */
describe('a user contract in BDS and GraphQL (deploy_contract over MCP, issue 28)', function () {
  this.timeout(180_000);
  const A = devAccount(0);
  const NAME = 'con_ledger_rows';
  const TAG = 'rent';
  const AMOUNT = '12.5';
  const LEDGER_NAME = 'Rows Ledger';
  const BPS = 40;
  const APPROVED = 100;

  let home: string;
  let host: TestHost;
  let client: Client;
  let closeServer: () => Promise<void>;
  let call: ToolCaller;
  let node: ChainNode;
  let graphqlUrl: string;
  let deployed: any;
  let deposit: any;

  const ok = (outcome: Awaited<ReturnType<ToolCaller>>) => {
    assert.equal(outcome.ok, true, outcome.text);
    return outcome.result;
  };
  /** A BDS query path through the node's abci_query (the devnet consults the host's paths). */
  const bds = async (p: string): Promise<any> => {
    const answer = await node.query(p);
    assert.equal(answer.code, 0, `${p}: ${answer.log}`);
    if (answer.value?.text === undefined || answer.value.text === null) return null;
    // Plain objects (parseJsonExact makes null-prototype ones), integers beyond 2^53 as text.
    return JSON.parse(JSON.stringify(parseJsonExact(answer.value.text), (_k, v) => (typeof v === 'bigint' ? v.toString() : v)));
  };
  const graphql = async (query: string, variables: Record<string, unknown> = {}): Promise<any> => {
    const r = await postJson(graphqlUrl, { query, variables });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.errors, undefined, r.text);
    return r.json.data;
  };

  before(async function () {
    home = await mkdtemp(path.join(os.tmpdir(), 'chainhost-user-contract-rows-'));
    await cp(await pgliteTemplateDir(), path.join(home, 'bds'), { recursive: true });
    // The host and its plugins in one ESM graph (see chain-tool-kit's startHost).
    const { bootTestHost } = await import('../../support/test-host.js');
    const { createMcpServer } = await import('../../../host/tools-server/mcp-server.js');
    const config = {
      ...devnetConfig(home, {
        plugins: {
          wallet: {}, query: {},
          bds: { catchupPollMs: 50, retryDelayMs: 100 },
          graphql: { host: '127.0.0.1', port: 0 },
        },
      }),
      tools: { unsafe: true },
    };
    host = await bootTestHost(config);
    graphqlUrl = `${host.host.serverUrl('graphql')}/graphql`;
    node = host.host.resolve(CoreTokens.chainNode) as ChainNode;
    const server = createMcpServer(host.host, 'in-process');
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    client = new Client({ name: 'user-contract-rows-test', version: '1.0.0' });
    await client.connect(clientSide);
    closeServer = () => server.close();
    call = mcpCaller(client);

    deployed = ok(await call('deploy_contract', {
      private_key: A.privateKey, name: NAME, code: LEDGER_SOURCE, constructor_args: { name: LEDGER_NAME, bps: BPS }, verbose: true,
    }));
    assert.equal(deployed.success, true, deployed.error);
    ok(await call('send_transaction', { private_key: A.privateKey, contract: 'currency', function: 'approve', kwargs: { amount: String(APPROVED), to: NAME } }));
    deposit = ok(await call('send_transaction', {
      private_key: A.privateKey, contract: NAME, function: 'deposit', kwargs: { tag: TAG, amount: AMOUNT }, verbose: true,
    }));
    assert.equal(deposit.success, true, deposit.error);
    const indexed = await host.host.resolve(BdsTokens.database).waitForHeight(Number(deposit.receipt.height), 60_000);
    assert.equal(indexed, true, `BDS indexed height ${deposit.receipt.height}`);
  });
  after(async () => {
    await client?.close();
    await closeServer?.();
    await host?.stop();
    if (home) await rm(home, { recursive: true, force: true });
  });

  /** What the node executed for a transaction, as the receipt carries it: the reference BDS must equal. */
  const writesOf = (receipt: any) => receipt.state.map((w: { key: string; value: unknown }) => [w.key, String(w.value)]);
  const eventsOf = (list: any[]) => list.map((e) => [e.contract, e.event, e.signer, e.caller, e.data_indexed, e.data]);
  /** The call's events, from the contract: currency.transfer_from into the contract, then the ledger's own Deposited. */
  const expectedDepositEvents = () => [
    ['currency', 'Transfer', A.address, NAME, { from: A.address, to: NAME }, { amount: AMOUNT }],
    [NAME, 'Deposited', A.address, A.address, { account: A.address, tag: TAG }, { amount: AMOUNT }],
  ];

  it('the deployment is a submission.submit_contract row with the receipt\'s chi, sender, height and arguments', async () => {
    const r = deployed.receipt;
    const row = await bds(`/tx/${r.tx_hash}`);
    assert.deepEqual(
      [row.tx_hash, row.contract, row.function, row.success, row.status_code, String(row.chi_used), row.sender, Number(row.block_height), Number(row.tx_index)],
      [r.tx_hash, 'submission', 'submit_contract', true, 0, String(r.chi_used), A.address, Number(r.height), r.index],
    );
    const tool = ok(await call('get_indexed_tx', { tx_hash: r.tx_hash }));
    assert.equal(tool.found, true);
    assert.deepEqual([tool.transaction.contract, tool.transaction.function, tool.transaction.success, String(tool.transaction.chi_used)], ['submission', 'submit_contract', true, String(r.chi_used)]);
    const kwargs = tool.transaction.payload.kwargs;
    assert.equal(kwargs.name, NAME);
    assert.equal(kwargs.code, LEDGER_SOURCE);
    assert.deepEqual(kwargs.constructor_args, { name: LEDGER_NAME, bps: BPS });
  });

  it('the deployment\'s state writes and ContractDeployed event are indexed as executed', async () => {
    const r = deployed.receipt;
    const compiled = compileContract(NAME, LEDGER_SOURCE);
    assert.ok(compiled.ok);
    const writes = await bds(`/state_for_tx/${r.tx_hash}`);
    const byKey = new Map<string, unknown>(writes.map((w: { key: string; value: unknown }) => [w.key, w.value]));
    // The constructor's two Variables with its arguments, and what submission stores for every contract.
    assert.equal(byKey.get(`${NAME}.ledger_name`), LEDGER_NAME);
    assert.equal(String(byKey.get(`${NAME}.fee_bps`)), String(BPS));
    assert.equal(byKey.get(`${NAME}.__developer__`), A.address);
    assert.equal(byKey.get(`${NAME}.__xian_ir_v1__`), compiled.artifact.vm_ir_json);
    assert.equal(byKey.get(`${NAME}.__source__`), compiled.artifact.source);
    assert.deepEqual(writes.map((w: { key: string; value: unknown }) => [w.key, String(w.value)]), writesOf(r), 'every write, in the node\'s order');
    const events = await bds(`/events_for_tx/${r.tx_hash}`);
    const deployedEvent = events.find((e: { event: string }) => e.event === 'ContractDeployed');
    assert.ok(deployedEvent, JSON.stringify(events.map((e: { event: string }) => e.event)));
    assert.deepEqual(deployedEvent.data_indexed, { name: NAME, developer: A.address });
    assert.deepEqual(eventsOf(events), eventsOf(r.events));
  });

  it('the call\'s events carry their indexed fields and data (query path, get_events_for_tx, list_events)', async () => {
    const r = deposit.receipt;
    assert.equal(r.result, AMOUNT, 'deposit returns the entry');
    const viaPath = await bds(`/events_for_tx/${r.tx_hash}`);
    assert.deepEqual(eventsOf(viaPath), expectedDepositEvents());
    assert.deepEqual(viaPath.map((e: any) => [e.tx_hash, Number(e.block_height), Number(e.event_index)]), [[r.tx_hash, Number(r.height), 0], [r.tx_hash, Number(r.height), 1]]);
    const viaTool = ok(await call('get_events_for_tx', { tx_hash: r.tx_hash }));
    assert.deepEqual(eventsOf(viaTool.items), expectedDepositEvents());
    const listed = ok(await call('list_events', { contract: NAME, event: 'Deposited', limit: 10 }));
    assert.deepEqual(listed.items.map((e: any) => [e.tx_hash, e.data_indexed, e.data]), [[r.tx_hash, { account: A.address, tag: TAG }, { amount: AMOUNT }]]);
  });

  it('the call\'s state changes are the contract\'s multi-key Hash entry and the currency writes (query path, get_state_for_tx, /state)', async () => {
    const r = deposit.receipt;
    const entryKey = `${NAME}.entries:${A.address}:${TAG}`;
    const expected = new Map([
      [entryKey, AMOUNT], // entries[ctx.caller, tag] += amount, from the default 0
      [`currency.balances:${NAME}`, AMOUNT], // transfer_from into ctx.this
      [`currency.approvals:${A.address}:${NAME}`, String(APPROVED - Number(AMOUNT))], // approved APPROVED, spent AMOUNT
    ]);
    const viaPath = await bds(`/state_for_tx/${r.tx_hash}`);
    const pathValues = new Map<string, string>(viaPath.map((w: { key: string; value: unknown }) => [w.key, String(w.value)]));
    for (const [key, value] of expected) assert.equal(pathValues.get(key), value, key);
    assert.deepEqual(viaPath.map((w: { key: string; value: unknown }) => [w.key, String(w.value)]), writesOf(r), 'every write, in the node\'s order');
    assert.ok(viaPath.every((w: any) => Number(w.block_height) === Number(r.height) && w.origin_type === 'transaction'));
    const viaTool = ok(await call('get_state_for_tx', { tx_hash: r.tx_hash }));
    assert.deepEqual(viaTool.items.map((w: { key: string; value: unknown }) => [w.key, String(w.value)]), writesOf(r));
    // The current-state table: the contract's keys now, deployment and call together.
    const current = await bds(`/state/${NAME}.entries/limit=10/offset=0`);
    const items = Array.isArray(current) ? current : current.items;
    assert.deepEqual(items.map((s: { key: string; value: unknown }) => [s.key, String(s.value)]), [[entryKey, AMOUNT]]);
  });

  it('the contract is in BDS\'s contract listing with its creator and deployment', async () => {
    const summary = await bds(`/contract_summary/${NAME}`);
    assert.deepEqual(
      [summary.name, summary.creator, summary.last_tx_hash, Number(summary.submitted_at_block), summary.xsc001, Number(summary.tx_count)],
      // tx_count: transactions whose contract is NAME — the one deposit (the deployment's contract is submission).
      [NAME, A.address, deployed.receipt.tx_hash, Number(deployed.receipt.height), false, 1],
    );
    const byCreator = await bds(`/contracts_by_creator/${A.address}/limit=100/offset=0`);
    const mine = byCreator.items.filter((c: { name: string }) => c.name === NAME);
    assert.deepEqual(mine.map((c: any) => [c.last_tx_hash, Number(c.submitted_at_block)]), [[deployed.receipt.tx_hash, Number(deployed.receipt.height)]]);
  });

  it('GraphQL serves the same rows: the deployment, the call\'s events and state changes, the contract', async () => {
    const d = deployed.receipt;
    const r = deposit.receipt;
    const data = await graphql(`query($deploy: String!, $call: String!, $name: String!) {
      deploy: transactionByHash(hash: $deploy) { blockHeight sender contract function success chiUsed }
      call: transactionByHash(hash: $call) { blockHeight contract function success chiUsed result }
      allEvents(condition: {txHash: $call}, orderBy: EVENT_INDEX_ASC) { nodes { contract event signer caller dataIndexed data } }
      allStateChanges(condition: {txHash: $call}, orderBy: WRITE_INDEX_ASC) { nodes { key newValue } }
      contractByName(name: $name) { lastTxHash submittedAtBlock xsc001 }
    }`, { deploy: d.tx_hash, call: r.tx_hash, name: NAME });
    assert.deepEqual(data.deploy, { blockHeight: String(d.height), sender: A.address, contract: 'submission', function: 'submit_contract', success: true, chiUsed: String(d.chi_used) });
    assert.deepEqual({ ...data.call, result: JSON.parse(data.call.result) }, { blockHeight: String(r.height), contract: NAME, function: 'deposit', success: true, chiUsed: String(r.chi_used), result: AMOUNT });
    const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v);
    assert.deepEqual(
      data.allEvents.nodes.map((e: any) => [e.contract, e.event, e.signer, e.caller, json(e.dataIndexed), json(e.data)]),
      expectedDepositEvents(),
    );
    assert.deepEqual(data.allStateChanges.nodes.map((w: any) => [w.key, String(json(w.newValue))]), writesOf(r));
    assert.deepEqual(data.contractByName, { lastTxHash: d.tx_hash, submittedAtBlock: String(d.height), xsc001: false });
  });
});
