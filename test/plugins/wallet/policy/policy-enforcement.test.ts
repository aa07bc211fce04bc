import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { ChainDecimal } from '../../../../core/chain/decimal.js';
import { Wallet } from '../../../../core/chain/keys.js';
import { Keystore } from '../../../../core/keystore/keystore.js';
import { recordMcpTraffic } from '../../../support/mcp-traffic.js';
import { scanForSecrets } from '../../../support/secret-scan.js';
import { devAccount, devnetConfig, expectError, mcpCaller, startHost, tempHome, type RunningHost, type ToolCaller } from '../chain-tool-kit.js';

/**
 * Spending policy and human confirmation through the MCP SDK client (in memory, against the
 * host's own MCP server over the in-process devnet): the keystore account `spender` may spend at
 * most 100 currency per transaction and 250 per rolling 24 hours, and a person must accept any
 * send that takes more than 50 currency out of it. Every refusal happens before signing: the
 * nonce does not move and nothing reaches the chain.
 */
const PASS = 'correct horse battery staple';
const SPENDER = devAccount(5);
const FRIEND = devAccount(6).address;

type Elicit = (message: string) => Promise<ElicitResult>;

interface McpClient {
  call: ToolCaller;
  /** Messages of the elicitation requests this client received. */
  asked: string[];
  close(): Promise<void>;
}

describe('spending policy and send confirmation (MCP elicitation) before signing', function () {
  this.timeout(120_000);
  let home: Awaited<ReturnType<typeof tempHome>>;
  let running: RunningHost | undefined;
  let clients: McpClient[] = [];
  /** Every MCP message of every session, for the secret scan. */
  const traffic: string[][] = [];

  const config = () =>
    devnetConfig(home.dir, {
      plugins: {
        wallet: {
          policies: { spender: { maxPerTransaction: { currency: '100' }, maxPer24h: { currency: '250' } } },
          confirm: { ask: { above: { currency: '50' } }, fallback: 'refuse', timeoutSeconds: 20 },
        },
        query: {},
      },
    });

  async function boot(): Promise<void> {
    running = await startHost(config(), { unsafe: true });
  }

  /** An MCP SDK client on the host's MCP server; `elicit` given = the client declares elicitation. */
  async function connect(elicit?: Elicit, { scanned = true } = {}): Promise<McpClient> {
    const { createMcpServer } = await import('../../../../host/tools-server/mcp-server.js');
    const server = createMcpServer(running!.host.host, 'in-process');
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    if (scanned) traffic.push(recordMcpTraffic(clientSide, serverSide));
    await server.connect(serverSide);
    const client = new Client({ name: 'policy-test', version: '1.0.0' }, { capabilities: elicit ? { elicitation: {} } : {} });
    const asked: string[] = [];
    if (elicit) {
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        asked.push(request.params.message);
        return elicit(request.params.message);
      });
    }
    await client.connect(clientSide);
    const session = { call: mcpCaller(client), asked, close: () => client.close() };
    clients.push(session);
    return session;
  }

  const accept: Elicit = async () => ({ action: 'accept', content: {} });
  const decline: Elicit = async () => ({ action: 'decline' });
  const stall: Elicit = () => new Promise(() => undefined);

  async function nonce(): Promise<number> {
    const outcome = await running!.call('get_next_nonce', { address: SPENDER.address });
    assert.equal(outcome.ok, true, outcome.text);
    return Number(outcome.result.nonce);
  }

  async function balance(address: string): Promise<string> {
    const outcome = await running!.call('get_balance', { address });
    assert.equal(outcome.ok, true, outcome.text);
    return String(outcome.result.balance);
  }

  /** Sends as the keystore account (the key never crosses MCP); `byKey` sends the same account's raw key instead. */
  const send = (caller: ToolCaller, amount: string, byKey = false) =>
    caller('send_tokens', { ...(byKey ? { private_key: SPENDER.privateKey } : { account: 'spender' }), to_address: FRIEND, amount });

  /** Asserts that `attempt` is refused with `code` and that nothing was signed: same nonce, same balances. */
  async function refusedBeforeSigning(attempt: () => Promise<Awaited<ReturnType<ToolCaller>>>, code: string, match?: RegExp) {
    const [nonceBefore, mine, theirs] = [await nonce(), await balance(SPENDER.address), await balance(FRIEND)];
    const error = expectError(await attempt(), { code, match });
    assert.equal(await nonce(), nonceBefore, 'no transaction was signed');
    assert.equal(await balance(SPENDER.address), mine);
    assert.equal(await balance(FRIEND), theirs);
    return error;
  }

  before(async () => {
    // The host unlocks the keystore with this at start, as a deployment would.
    process.env.CHAIN_KEYSTORE_PASSPHRASE = PASS;
    home = await tempHome();
    await new Keystore(home.dir, { scrypt: { n: 2 ** 10, r: 8, p: 1 } }).add('spender', Wallet.fromPrivateKey(SPENDER.privateKey), PASS);
    await boot();
  });

  afterEach(async () => {
    await Promise.all(clients.map((c) => c.close()));
    clients = [];
  });

  after(async () => {
    delete process.env.CHAIN_KEYSTORE_PASSPHRASE;
    await running?.stop();
    // No private key in any MCP message nor in the keystore's files (only sealed there).
    traffic.flat().forEach((text, i) => {
      scanForSecrets(text, `policy MCP message ${i}`);
      assert.ok(!text.includes(SPENDER.privateKey), `the spender's key is in MCP message ${i}`);
    });
    const keyFile = await readFile(path.join(home.dir, 'keys', 'spender.json'), 'utf8');
    scanForSecrets(keyFile, 'keystore file spender.json');
    assert.ok(!keyFile.includes(SPENDER.privateKey));
    await home?.remove();
  });

  it('a send within the limits and under the threshold goes through without asking', async () => {
    const mcp = await connect(accept);
    const before = await nonce();
    const outcome = await send(mcp.call, '10');
    assert.equal(outcome.ok, true, outcome.text);
    assert.equal(outcome.result.success, true);
    assert.equal(await nonce(), before + 1);
    assert.deepEqual(mcp.asked, []);
  });

  it('a send above the threshold asks the person with a plain summary and goes through on accept', async () => {
    const mcp = await connect(accept);
    const outcome = await send(mcp.call, '60');
    assert.equal(outcome.ok, true, outcome.text);
    assert.equal(mcp.asked.length, 1);
    const message = mcp.asked[0]!;
    assert.match(message, new RegExp(`From: ${SPENDER.address} \\(account spender\\)`));
    assert.match(message, /Call: currency\.transfer/);
    assert.match(message, new RegExp(`To: ${FRIEND}`));
    const fee = /Fee: at most ([\d.]+) currency \(\d+ chi supplied\)/.exec(message)?.[1];
    assert.ok(fee && ChainDecimal.parse(fee).gt(0n), message);
    // The amount sent plus the fee, counted once.
    assert.match(message, new RegExp(`Amounts leaving the account: ${ChainDecimal.parse('60').plus(fee).toString().replace('.', '\\.')} currency \\(fee included\\)`));
    assert.ok(!message.includes(SPENDER.privateKey));
  });

  it('a send over the per-transaction limit is refused before signing, naming the rule and what is allowed, without asking anyone', async () => {
    const mcp = await connect(accept);
    const error = await refusedBeforeSigning(() => send(mcp.call, '101'), 'policy_denied', /rule maxPerTransaction.*at most 100 per transaction; remaining: 100 currency/);
    assert.equal(error.details?.rule, 'maxPerTransaction');
    assert.deepEqual(error.details?.remaining, { currency: '100' });
    assert.equal(error.details?.account, 'spender');
    assert.deepEqual(mcp.asked, [], 'the policy refuses before a person is asked');
    // The policy binds the account's address, however its key arrives (this session carries the
    // raw key on purpose, so it stays out of the secret scan).
    const byKey = await connect(accept, { scanned: false });
    await refusedBeforeSigning(() => send(byKey.call, '101', true), 'policy_denied', /rule maxPerTransaction/);
  });

  it('a declined confirmation sends nothing', async () => {
    const mcp = await connect(decline);
    await refusedBeforeSigning(() => send(mcp.call, '60'), 'confirmation_declined', /declined currency\.transfer.*nothing was sent/);
    assert.equal(mcp.asked.length, 1);
  });

  it('a confirmation nobody answers times out and sends nothing', async () => {
    const mcp = await connect(stall);
    const started = performance.now();
    await refusedBeforeSigning(() => send(mcp.call, '60'), 'confirmation_timeout', /within 20 s; nothing was sent/);
    assert.ok(performance.now() - started < 100_000, 'the timeout ends the wait (a hang would not)');
  });

  it('a client without elicitation gets the fallback (refuse) above the threshold, and sends under it', async () => {
    const mcp = await connect();
    const error = await refusedBeforeSigning(() => send(mcp.call, '60'), 'confirmation_unavailable', /cannot ask anyone.*nothing was sent.*a person makes the call from an MCP client that supports elicitation/);
    // What to do, never how to weaken the policy.
    assert.doesNotMatch(error.message, /fallback|"allow"/);
    const outcome = await send(mcp.call, '5');
    assert.equal(outcome.ok, true, outcome.text);
  });

  it('the HTTP tool API (no MCP, nobody to ask) gets the fallback too, as 403', async () => {
    const before = await nonce();
    const outcome = await send(running!.call, '60');
    expectError(outcome, { code: 'confirmation_unavailable', status: 403 });
    assert.equal(await nonce(), before);
  });

  it('get_account_policy shows the limits, what was spent and what is left', async () => {
    const mcp = await connect();
    const byAlias = await mcp.call('get_account_policy', { account: 'spender' });
    assert.equal(byAlias.ok, true, byAlias.text);
    const p = byAlias.result;
    assert.equal(p.address, SPENDER.address);
    assert.equal(p.has_policy, true);
    assert.deepEqual(p.max_per_transaction, { currency: '100' });
    assert.deepEqual(p.max_per_24h, { currency: '250' });
    assert.equal(p.window_hours, 24);
    // 10 + 60 + 5 sent, plus their fees.
    const spent = ChainDecimal.parse(p.spent_24h.currency);
    assert.ok(spent.gt('75') && spent.lt('85'), `spent ${spent.toString()}`);
    assert.equal(p.remaining_24h.currency, ChainDecimal.parse('250').minus(spent).toString());
    assert.deepEqual(p.confirm, { ask: 'above', above: { currency: '50' }, fallback: 'refuse', timeout_seconds: 20 });
    const byAddress = await mcp.call('get_account_policy', { account: SPENDER.address });
    assert.deepEqual(byAddress.result, p);
    expectError(await mcp.call('get_account_policy', { account: 'nobody' }), { code: 'unknown_account', field: 'account' });
    const plain = await mcp.call('get_account_policy', { account: devAccount(7).address });
    expectError(plain, { code: 'unknown_account' });
  });

  it('two concurrent sends cannot both fit under what is left of the daily limit', async () => {
    // Both are accepted only once both were asked: each passed the early check on its own, so
    // only the check inside the sender's lane can stop the second.
    const waiting: Array<() => void> = [];
    const together: Elicit = () => new Promise((resolve) => {
      waiting.push(() => resolve({ action: 'accept', content: {} }));
      if (waiting.length === 2) waiting.forEach((go) => go());
    });
    const mcp = await connect(together);
    const before = await nonce();
    const outcomes = await Promise.all([send(mcp.call, '95'), send(mcp.call, '95')]);
    const passed = outcomes.filter((o) => o.ok);
    const refused = outcomes.filter((o) => !o.ok);
    assert.equal(passed.length, 1, outcomes.map((o) => o.text.slice(0, 200)).join('\n'));
    const error = expectError(refused[0]!, { code: 'policy_denied', match: /rule maxPer24h/ });
    assert.equal(error.details?.rule, 'maxPer24h');
    assert.equal(mcp.asked.length, 2);
    assert.equal(await nonce(), before + 1);
  });

  it('a send over what is left of the daily limit is refused, and the 24 h window survives a restart', async () => {
    const left = async () => {
      const outcome = await running!.call('get_account_policy', { account: 'spender' });
      assert.equal(outcome.ok, true, outcome.text);
      return outcome.result.remaining_24h.currency as string;
    };
    const remaining = await left();
    assert.ok(ChainDecimal.parse(remaining).lt('80'), `remaining ${remaining}`);
    const ledger = await readFile(path.join(home.dir, 'wallet', 'spend-ledger.json'), 'utf8');
    assert.ok(!ledger.includes(SPENDER.privateKey));

    await running!.stop();
    running = undefined;
    await boot();
    assert.equal(await left(), remaining, 'the restart keeps what was spent');
    const mcp = await connect(accept);
    const error = await refusedBeforeSigning(() => send(mcp.call, '90'), 'policy_denied', new RegExp(`rule maxPer24h.*remaining: ${remaining.replace('.', '\\.')} currency`));
    assert.deepEqual(error.details?.remaining, { currency: remaining });
    assert.deepEqual(mcp.asked, []);
  });
});
