import assert from 'node:assert/strict';
import { zkSyscall } from '../../../../core/contracting/vm/zk.js';
import { FIELD_ZERO_HEX, ZERO_ROOT, shieldedNoteDeployment } from '../../../../plugins/devnet/engine/contracts/shielded-note.js';

/** The chain VM's payload hash (what the contract's `zk.shielded_output_payload_hash` answers). */
function outputPayloadHash(payloadHex: string): string {
  return zkSyscall('zk.shielded_output_payload_hash', [payloadHex], []) as string;
}
import { submit } from './dex-fixture.js';
import { ALICE, BOB, CAROL, TestChain, str } from './support.js';

const commitment = (n: number): string => '0x' + n.toString(16).padStart(64, '0');

function payload(syncHint: string, discoveryTag: string): string {
  const json = JSON.stringify({
    ciphertexts: [{ ciphertext: '0xaa', discovery_tag: discoveryTag, ephemeral_public_key: '0xbb', label: 'note', nonce: '0xcc', sync_hint: syncHint }],
    version: 2,
  });
  return '0x' + Buffer.from(json, 'utf8').toString('hex');
}

describe('devnet engine: shielded notes (contracts.md §10)', () => {
  let chain: TestChain;
  beforeEach(() => {
    chain = TestChain.withGenesis({ dex: false });
    submit(chain, ALICE, shieldedNoteDeployment({ name: 'con_shielded_note_token', operator: ALICE }));
    assert.equal(chain.send(ALICE, 'con_shielded_note_token', 'mint_public', { amount: 1000n, to: BOB }).status, 0);
  });

  it("payload hashes are the chain's zk.shielded_output_payload_hash; empty → 0x00…00", () => {
    const p = payload('0x' + '11'.repeat(12), '0x' + '22'.repeat(16));
    assert.match(outputPayloadHash(p), /^0x[0-9a-f]{64}$/);
    assert.notEqual(outputPayloadHash(p), FIELD_ZERO_HEX);
    assert.equal(outputPayloadHash(''), FIELD_ZERO_HEX);
  });

  it('deposit_shielded assigns sequential note indices and emits ShieldedOutputsCommitted', () => {
    const payloads = [payload('0x' + '11'.repeat(12), '0x' + '22'.repeat(16)), ''];
    const out = chain.send(BOB, 'con_shielded_note_token', 'deposit_shielded', {
      amount: 600n, old_root: ZERO_ROOT, output_commitments: [commitment(1), commitment(2)], proof_hex: '0x01', output_payloads: payloads,
    });
    assert.equal(out.status, 0, out.error);
    assert.equal(chain.get(`con_shielded_note_token.balances:${BOB}`), 400n);
    assert.equal(chain.get('con_shielded_note_token.shielded_supply'), 600n);
    const committed = out.events.find((e) => e.event === 'ShieldedOutputsCommitted')!;
    assert.equal(committed.contract, 'con_shielded_note_token');
    assert.deepEqual(Object.keys(committed.data_indexed), ['new_root']);
    assert.match(String(committed.data_indexed['new_root']), /^0x[0-9a-f]{64}$/);
    assert.equal(committed.data_indexed['new_root'], out.result);
    assert.deepEqual(Object.fromEntries(Object.entries(committed.data).map(([k, v]) => [k, str(v)])), {
      action: 'deposit',
      note_index_start: '0',
      output_count: '2',
      commitments_blob: `${commitment(1)}|${commitment(2)}`,
      payload_hashes_blob: `${outputPayloadHash(payloads[0]!)}|${FIELD_ZERO_HEX}`,
    });
    assert.equal(typeof committed.data['note_index_start'], 'bigint');
    assert.deepEqual(out.events.map((e) => e.event), ['ShieldedOutputsCommitted', 'ShieldedDeposit']);

    // A transfer spends nullifiers and continues the note indices.
    const next = chain.send(BOB, 'con_shielded_note_token', 'transfer_shielded', {
      old_root: out.result!, input_nullifiers: [commitment(9)], output_commitments: [commitment(3)], proof_hex: '0x02',
      output_payloads: [payload('0x' + '33'.repeat(12), '0x' + '44'.repeat(16))],
    });
    assert.equal(next.status, 0, next.error);
    const second = next.events.find((e) => e.event === 'ShieldedOutputsCommitted')!;
    assert.equal(second.data['note_index_start'], 2n);
    assert.equal(second.data['action'], 'transfer');
    assert.equal(chain.get('con_shielded_note_token.note_count'), 3n);

    const again = chain.send(CAROL, 'con_shielded_note_token', 'transfer_shielded', {
      old_root: next.result!, input_nullifiers: [commitment(9)], output_commitments: [commitment(4)], proof_hex: '0x02',
    });
    assert.equal(again.error, 'Nullifier already spent!');
  });

  it('withdraw_shielded pays out publicly and commits change outputs', () => {
    const dep = chain.send(BOB, 'con_shielded_note_token', 'deposit_shielded', {
      amount: 600n, old_root: ZERO_ROOT, output_commitments: [commitment(1)], proof_hex: '0x01',
    });
    const out = chain.send(BOB, 'con_shielded_note_token', 'withdraw_shielded', {
      amount: 100n, to: CAROL, old_root: dep.result!, input_nullifiers: [commitment(7)], output_commitments: [commitment(5)], proof_hex: '0x03',
      output_payloads: [null],
    });
    assert.equal(out.status, 0, out.error);
    assert.equal(chain.get(`con_shielded_note_token.balances:${CAROL}`), 100n);
    const committed = out.events.find((e) => e.event === 'ShieldedOutputsCommitted')!;
    assert.equal(committed.data['action'], 'withdraw');
    assert.equal(committed.data['note_index_start'], 1n);
  });

  it('validates payloads, roots and commitments with the contract\'s messages', () => {
    const deposit = (kwargs: Record<string, unknown>) => chain.send(BOB, 'con_shielded_note_token', 'deposit_shielded', {
      amount: 10n, old_root: ZERO_ROOT, output_commitments: [commitment(1)], proof_hex: '0x01', ...kwargs,
    } as never);
    assert.equal(deposit({ output_payloads: ['0x01', '0x02'] }).error, 'output_payloads length must match output commitments!');
    assert.equal(deposit({ output_payloads: ['abc'] }).error, 'output payload must be 0x-prefixed!');
    assert.equal(deposit({ old_root: commitment(5) }).error, 'old_root is not accepted!');
    assert.equal(deposit({ output_commitments: [FIELD_ZERO_HEX] }).error, 'Output commitment must be non-zero!');
    assert.equal(deposit({ amount: 5000n }).error, 'Not enough public balance!');
    assert.equal(deposit({ output_commitments: [commitment(1), commitment(2), commitment(3), commitment(4), commitment(5)] }).error, 'output_commitments has invalid length!');
  });

  it('exports get_metadata with precision 0 (so the DEX normalises its amounts to integers)', () => {
    const md = chain.send(BOB, 'con_shielded_note_token', 'get_metadata', {}).result as Record<string, unknown>;
    assert.equal(md['precision'], 0n);
  });
});
