import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { ChainDecimal } from '../../../../core/chain/decimal.js';
import { Wallet } from '../../../../core/chain/keys.js';
import { canonicalPayload, encodeTransaction, type TxPayload } from '../../../../core/chain/transaction.js';
import { CoreTokens } from '../../../../core/core-tokens.js';
import { Keystore } from '../../../../core/keystore/keystore.js';
import { recordMcpTraffic } from '../../../support/mcp-traffic.js';
import { scanForSecrets } from '../../../support/secret-scan.js';
import { devAccount, devnetConfig, expectError, mcpCaller, startHost, tempHome, type RunningHost, type ToolCaller } from '../chain-tool-kit.js';

/**
 * The two ways an agent got value out of a policy account without the policy or a person
 * (issue #29), played against the host over MCP and the HTTP tool API: (1) sign_message over a
 * transaction payload, then broadcast it to the node; (2) approve a mule, then transfer_from
 * signed by the mule. Both by keystore account and by the raw key of the same account.
 */
const PASS = 'correct horse battery staple';
const ERIN = devAccount(8);
const FRIEND = devAccount(9);
const MULE = Wallet.generate();

describe('no signature or approval escapes the spending policy', function () {
  this.timeout(120_000);
  let home: Awaited<ReturnType<typeof tempHome>>;
  let running: RunningHost;
  let mcp: ToolCaller;
  let client: Client;
  const asked: string[] = [];
  let traffic: string[] = [];

  const balance = async (address: string) => ChainDecimal.parse(String((await running.call('get_balance', { address })).result.balance));
  const balance_ = async (address: string) => ChainDecimal.parse(String((await running.call('get_balance', { address })).result.balance));
  const nonce = async () => Number((await running.call('get_next_nonce', { address: ERIN.address })).result.nonce);
  const spentToday = async () => ChainDecimal.parse((await running.call('get_account_policy', { account: 'erin' })).result.spent_24h.currency ?? '0');

  before(async () => {
    process.env.CHAIN_KEYSTORE_PASSPHRASE = PASS;
    home = await tempHome();
    const keystore = new Keystore(home.dir, { scrypt: { n: 2 ** 10, r: 8, p: 1 } });
    await keystore.add('erin', Wallet.fromPrivateKey(ERIN.privateKey), PASS);
    await keystore.add('friend', Wallet.fromPrivateKey(FRIEND.privateKey), PASS);
    running = await startHost(devnetConfig(home.dir, {
      plugins: {
        wallet: {
          policies: { erin: { maxPer24h: { currency: '50' }, allowedRecipients: [FRIEND.address] } },
          confirm: { ask: 'always', fallback: 'refuse', timeoutSeconds: 10 },
        },
        crypto: {},
        query: {},
      },
    }), { unsafe: true });
    const { createMcpServer } = await import('../../../../host/tools-server/mcp-server.js');
    const server = createMcpServer(running.host.host, 'in-process');
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    traffic = recordMcpTraffic(clientSide, serverSide);
    await server.connect(serverSide);
    client = new Client({ name: 'escape-test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: 'accept', content: {} };
    });
    await client.connect(clientSide);
    mcp = mcpCaller(client);
  });

  after(async () => {
    delete process.env.CHAIN_KEYSTORE_PASSPHRASE;
    await client?.close();
    await running?.stop();
    traffic.forEach((text, i) => scanForSecrets(text, `escape MCP message ${i}`));
    await home?.remove();
  });

  /** Attack 1: a raw signature over the transfer payload with erin's next nonce, broadcast straight to the node. */
  async function signAndBroadcast(caller: ToolCaller, signer: Record<string, string>, message: (p: TxPayload) => string) {
    const payload: TxPayload = { chain_id: 'chain-local-1', chi_supplied: 5000, contract: 'currency', function: 'transfer', kwargs: { amount: 1000, to: MULE.address }, nonce: await nonce(), sender: ERIN.address };
    const [erinBefore, muleBefore] = [await balance(ERIN.address), await balance(MULE.address)];
    const outcome = await caller('sign_message', { ...signer, message: message(payload) });
    if (outcome.ok) {
      // What the attacker would do next; it must not be possible to get here.
      const node = running.host.host.resolve(CoreTokens.chainNode);
      await node.broadcastTxCommit(encodeTransaction({ metadata: { signature: outcome.result.signature }, payload }).hex).catch(() => undefined);
    }
    assert.equal((await balance(MULE.address)).toString(), muleBefore.toString(), 'nothing reached the mule');
    assert.equal((await balance(ERIN.address)).toString(), erinBefore.toString());
    return expectError(outcome, { code: 'signature_refused', field: 'message', match: /rule transaction_payload/ });
  }

  it('sign_message refuses the payload of a transfer, by account (MCP) and by raw key (HTTP), in any spacing', async () => {
    await signAndBroadcast(mcp, { account: 'erin' }, canonicalPayload);
    await signAndBroadcast(running.call, { private_key: ERIN.privateKey }, canonicalPayload);
    await signAndBroadcast(mcp, { account: 'erin' }, (p) => JSON.stringify(p, null, 1));
    // The envelope of the same text stays available: it can never verify as a transaction.
    const envelope = await mcp('sign_message', { account: 'erin', message: 'hello', envelope: true });
    assert.equal(envelope.ok, true, envelope.text);
  });

  it('an approval to a mule is spending to a stranger: refused before signing, by account and by raw key', async () => {
    const before = await nonce();
    for (const signer of [{ account: 'erin' }, { private_key: ERIN.privateKey }]) {
      const caller = 'account' in signer ? mcp : running.call;
      const error = expectError(await caller('send_transaction', { ...signer, contract: 'currency', function: 'approve', kwargs: { amount: '5000', to: MULE.address } }), { code: 'policy_denied', match: /rule allowedRecipients/ });
      assert.equal(error.details?.rule, 'allowedRecipients');
    }
    assert.equal(await nonce(), before, 'nothing was signed');
  });

  it('an approval within the policy is counted as spending, named in the confirmation, and the spender\'s transfer_from is not counted again', async () => {
    const spentBefore = await spentToday();
    asked.length = 0;
    const approved = await mcp('send_transaction', { account: 'erin', contract: 'currency', function: 'approve', kwargs: { amount: '30', to: FRIEND.address } });
    assert.equal(approved.ok, true, approved.text);
    assert.equal(asked.length, 1);
    assert.match(asked[0]!, new RegExp(`Approval: ${FRIEND.address} may take 30 currency more from the account`));
    assert.match(asked[0]!, new RegExp(`To: ${FRIEND.address}`));
    const counted = (await spentToday()).minus(spentBefore);
    assert.ok(counted.gt('30') && counted.lt('33'), `counted ${counted.toString()}: 30 and the fee`);

    // More than is left of the 50 per day, even though no balance moves yet.
    expectError(await mcp('send_transaction', { account: 'erin', contract: 'currency', function: 'approve', kwargs: { amount: '60', to: FRIEND.address } }), { code: 'policy_denied', match: /rule maxPer24h/ });

    // The spender takes it (its own transaction, no policy): the answer shows the payer's new balance.
    const erinBefore = await balance(ERIN.address);
    const taken = await mcp('send_transaction', { account: 'friend', contract: 'currency', function: 'transfer_from', kwargs: { amount: '30', to: FRIEND.address, main_account: ERIN.address } });
    assert.equal(taken.ok, true, taken.text);
    const payer = (taken.result.balances as Array<{ token: string; address: string; balance: string }>).find((b) => b.address === ERIN.address);
    assert.equal(payer?.balance, erinBefore.minus('30').toString());
    assert.equal((await spentToday()).minus(spentBefore).toString(), counted.toString(), 'counted once, at the approval');
  });

  it('list_accounts shows alias, address, the policy in one line and what is left today; read tools take an alias for an address', async () => {
    const listed = await mcp('list_accounts', {});
    assert.equal(listed.ok, true, listed.text);
    assert.equal(listed.result.keystore, 'unlocked');
    const byAlias = Object.fromEntries(listed.result.accounts.map((a: { alias: string }) => [a.alias, a]));
    assert.equal(byAlias.erin.address, ERIN.address);
    assert.match(byAlias.erin.policy, new RegExp(`≤ 50 currency per 24 h; recipients: ${FRIEND.address}`));
    assert.equal(byAlias.erin.remaining_24h.currency, ChainDecimal.parse('50').minus(await spentToday()).toString());
    assert.deepEqual(byAlias.friend, { alias: 'friend', address: FRIEND.address, policy: 'no spending policy: not limited', remaining_24h: {} });
    assert.ok(!listed.text.includes(ERIN.privateKey) && !listed.text.includes(FRIEND.privateKey));
    const balance = await mcp('get_balance', { address: 'Erin' });
    assert.equal(balance.ok, true, balance.text);
    assert.equal(String(balance.result.balance), (await balance_(ERIN.address)).toString());
    // A name that is no account stays the address error; the signer error points at list_accounts, not chain-keys.
    expectError(await mcp('get_balance', { address: 'nobody' }), { code: 'invalid_arguments', field: 'address' });
    const unknown = expectError(await mcp('send_tokens', { account: 'nobody', to_address: FRIEND.address, amount: '1' }), { code: 'invalid_arguments', match: /list_accounts/ });
    assert.doesNotMatch(unknown.message, /chain-keys/);
  });
});
