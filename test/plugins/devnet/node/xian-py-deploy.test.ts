import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { compileContract } from '../../../../core/contracting/index.js';
import { transactionSize } from '../../../../plugins/devnet/engine/executor.js';
import { abciQuery, decodeData, openDevnet, txParam, valueText } from './devnet-fixture.js';

/** test/conformance/fixtures/xian-py-deploy.json, recorded with Python and PyNaCl (its recorder is beside it). */
const fixture = JSON.parse(readFileSync(new URL('../../../conformance/fixtures/xian-py-deploy.json', import.meta.url), 'utf8')) as {
  sender: string;
  source: string;
  forms: Array<{ name: string; wire_json: string; raw_hex: string; hash: string }>;
};

describe("xian-py's deploy journey in its wire form (submit_contract, then a call)", function () {
  this.timeout(120_000);

  it('is admitted and executed; source, IR and methods read back; the call costs the gas schedule by hand', async () => {
    const net = await openDevnet();
    try {
      assert.equal(net.devnet.accounts()[0]!.address, fixture.sender, 'the fixture signs as dev account 0');
      const [deploy, call] = fixture.forms as [typeof fixture.forms[0], typeof fixture.forms[0]];
      const deployed = await net.devnet.rpc.call<any>('broadcast_tx_commit', { tx: txParam(deploy.raw_hex) });
      assert.equal(deployed.check_tx.code, 0, deployed.check_tx.log);
      assert.equal(deployed.hash, deploy.hash);
      assert.equal(deployed.tx_result.code, 0, JSON.stringify(decodeData(deployed.tx_result.data)));

      const compiled = compileContract('con_pynotes', fixture.source);
      assert.ok(compiled.ok);
      assert.equal(valueText(await abciQuery(net.devnet, '/contract_source/con_pynotes')), compiled.artifact.source);
      assert.equal(valueText(await abciQuery(net.devnet, '/contract_ir/con_pynotes')), compiled.artifact.vm_ir_json, 'byte for byte');
      assert.deepEqual(JSON.parse(valueText(await abciQuery(net.devnet, '/contract_methods/con_pynotes'))!), {
        methods: [{ name: 'put', arguments: [{ name: 'key', type: 'str' }, { name: 'value', type: 'str' }] }],
      });

      const r = await net.devnet.rpc.call<any>('broadcast_tx_commit', { tx: txParam(call.raw_hex) });
      assert.equal(r.tx_result.code, 0, JSON.stringify(decodeData(r.tx_result.data)));
      assert.equal(valueText(await abciQuery(net.devnet, '/get/con_pynotes.notes:a')), 'b');
      // By hand (contracting-vm.md §e.1): transaction bytes + dispatch 5,000 + `notes[key] = value`
      // (storage_set 5,120 + name 64 + name 64 + write 25 × (len('con_pynotes.notes:a') 19 + len('"b"') 3))
      // + the return value None (`null`, 4 bytes). `notes = Hash()` evaluates nothing; `put` is far below
      // the 40-node entry threshold.
      const raw = transactionSize({ rawHex: Buffer.from(JSON.stringify(JSON.parse(call.wire_json))).toString('hex') } as never)
        + 5_000 + 5_120 + 64 + 64 + 25 * (19 + 3) + 4;
      assert.equal(decodeData(r.tx_result.data).chi_used, Math.floor(raw / 1000) + 5);
    } finally {
      await net.close();
    }
  });
});
