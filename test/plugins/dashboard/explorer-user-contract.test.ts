import assert from 'node:assert/strict';
import { encodeTransaction, signTransaction } from '../../../core/chain/transaction.js';
import { request } from '../../support/test-host.js';
import { LEDGER_SOURCE } from '../../support/ledger-contract.js';
import { bootDashboardHost, type DashboardHost } from './support/dashboard-host.js';

/**
 * A user contract deployed from source on the devnet (signed submission.submit_contract, as
 * xian-py sends it): the explorer's contract page shows its methods with their argument types,
 * its variables and hashes, and its source — all read from what the node stored.
 */
describe('explorer contract page of a user-deployed contract', function () {
  this.timeout(120_000);
  let h: DashboardHost;
  before(async () => {
    h = await bootDashboardHost();
    const account = h.accounts[0]!;
    const signed = signTransaction({
      chain_id: h.chainId, chi_supplied: 200_000, contract: 'submission', function: 'submit_contract',
      kwargs: { name: 'con_ledger', code: LEDGER_SOURCE, constructor_args: { name: 'Ledger' } }, nonce: 0, sender: account.address,
    }, account.privateKey);
    const result = await h.node.broadcastTxCommit(encodeTransaction(signed).hex);
    assert.equal(result.check_tx.code, 0, result.check_tx.log);
    assert.equal(result.tx_result.code, 0, Buffer.from(result.tx_result.data ?? '', 'base64').toString());
  });
  after(async () => h?.stop());

  it('lists typed methods, variables, hashes and the source', async () => {
    const res = await request(h.url('/explorer/contract/con_ledger'));
    assert.equal(res.status, 200);
    const page = res.text.replace(/<[^>]+>/g, '');
    assert.ok(page.includes('deposit(tag: str, amount: float)'), page.slice(0, 2000));
    assert.ok(page.includes('balance(account: str, tag: str)'));
    assert.ok(page.includes('name()'));
    assert.match(page, /Variables\s*VariableValue\s*ledger_nameLedger\s*fee_bps0/);
    assert.match(page, /Hashes\s*entries\s*No entries\./);
    assert.ok(page.includes('currency.transfer_from(amount=amount, to=ctx.this, main_account=ctx.caller)'));
  });
});
