import assert from 'node:assert/strict';
import * as ir from './ir-builder.js';
import { call } from './helpers.js';

/** zk helper syscalls: xian-zk's Poseidon digests and their explicit gas. */
const one = `0x${'0'.repeat(63)}1`;
const two = `0x${'0'.repeat(63)}2`;
const zk = (fn: string, ...args: Record<string, unknown>[]) =>
  ir.syscall(`zk.${fn}`, ir.attr(ir.name('zk', 'module.zk'), fn, `zk.${fn}`), args);

function probe(expr: Record<string, unknown>) {
  return call([ir.module('con_zk', { functions: [ir.fn('probe', [], [ir.ret(expr)])] })], 'probe');
}

describe('VM zk helpers', () => {
  it("computes the command nullifier digest as the chain does, charging 100,000 + 50,000 per input", () => {
    const out = probe(zk('shielded_command_nullifier_digest', ir.list(ir.str(one), ir.str(two))));
    assert.equal(out.status, 0, out.error);
    // The chain's value for nullifiers [1, 2] (upstream parity fixture authored_shielded_note_hash).
    assert.equal(out.result, '0x130ccd8261b1d74f15b0d81910b4cfae84f56da939b366f9be0c6713ee2e965c');
    // dispatch 5,000 + return 32 + call 5,000 + list 128 + 2 constants 64 + 150,000 + 50,000 + result 68 bytes
    assert.equal(out.raw_cost, BigInt(5_000 + 32 + 5_000 + 128 + 64 + 200_000 + 68));
  });

  it('hashes an output payload with SHA3 into the field and refuses malformed field values', () => {
    const empty = probe(zk('shielded_output_payload_hash', ir.str('')));
    assert.equal(empty.result, `0x${'0'.repeat(64)}`);
    const bad = probe(zk('shielded_command_execution_tag', ir.str('01'), ir.str(two)));
    assert.equal(bad.error, 'field values must be 0x-prefixed');
    assert.equal(probe(zk('verify_groth16', ir.str('vk'), ir.str('0x00'), ir.list())).error, "unsupported host syscall 'zk.verify_groth16'");
  });
});
