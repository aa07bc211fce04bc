import { bn254_Fr } from '@noble/curves/bn254.js';
import { PoseidonSponge, grainGenConstants, poseidon } from '@noble/curves/abstract/poseidon.js';
import { sha3_256 } from '@noble/hashes/sha3.js';
import { VmError } from './errors.js';
import { VmTuple, typeName, type VmValue } from './values.js';

/**
 * The shielded-note helper syscalls, computed as upstream's xian-zk does: a Poseidon sponge over
 * the BN254 scalar field (t = 3, rate 2, capacity 1, x^5, 8 full + 57 partial rounds) with
 * constants from the Grain LFSR — arkworks' `find_poseidon_ark_and_mds` and `PoseidonSponge`,
 * which @noble/curves' `grainGenConstants` and `PoseidonSponge` reproduce — and every hash
 * domain-separated by absorbing its tag first. Field elements travel as 0x + 64 hex digits.
 */
const ROUNDS = { t: 3, roundsFull: 8, roundsPartial: 57 };
const MAX_INPUTS = 4; // SHIELDED_NOTE_MAX_INPUTS
const DOMAIN = { commandNullifierDigest: 5n, commandBinding: 6n, commandExecutionTag: 7n };

let permutation: ReturnType<typeof poseidon> | undefined;

function poseidonHash(domain: bigint, values: bigint[]): bigint {
  permutation ??= poseidon({ Fp: bn254_Fr, ...ROUNDS, sboxPower: 5, ...grainGenConstants({ Fp: bn254_Fr, ...ROUNDS }) });
  const sponge = new PoseidonSponge(bn254_Fr, 2, 1, permutation);
  sponge.absorb([domain, ...values]);
  return sponge.squeeze(1)[0]!;
}

function fieldHex(v: bigint): string {
  return `0x${v.toString(16).padStart(64, '0')}`;
}

function parseField(text: string): bigint {
  if (!text.startsWith('0x')) throw new VmError('field values must be 0x-prefixed');
  const raw = text.slice(2);
  if (raw.length % 2 || !/^[0-9a-fA-F]*$/.test(raw)) throw new VmError('Invalid character or odd length in hex input');
  if (raw.length !== 64) throw new VmError('field values must be 32 bytes');
  return bn254_Fr.create(BigInt(`0x${raw}`));
}

function sha3Field(text: string): bigint {
  return bn254_Fr.create(BigInt(`0x${Buffer.from(sha3_256(Buffer.from(text, 'utf8'))).toString('hex')}`));
}

function payloadHash(payloadHex: string): string {
  return fieldHex(payloadHex ? sha3Field(payloadHex) : 0n);
}

type Args = { arg(name: string, position: number): VmValue | undefined };

function argReader(args: VmValue[], kwargs: [string, VmValue][]): Args {
  return { arg: (name, position) => args[position] ?? kwargs.find(([k]) => k === name)?.[1] };
}

function required(a: Args, name: string, position: number): VmValue {
  const v = a.arg(name, position);
  if (v === undefined) throw new VmError(`missing required argument '${name}'`);
  return v;
}

function text(a: Args, name: string, position: number): string {
  const v = required(a, name, position);
  if (typeof v !== 'string') throw new VmError(`argument '${name}' must be a string, got ${v === null ? 'NoneType' : typeName(v)}`);
  return v;
}

function u64(a: Args, name: string, position: number): bigint {
  const v = required(a, name, position);
  if (typeof v !== 'bigint') throw new VmError(`argument '${name}' must be an integer, got ${v === null ? 'NoneType' : typeName(v)}`);
  if (v < 0n || v > 0xffffffffffffffffn) throw new VmError(`argument '${name}' must fit into u64`);
  return v;
}

function textList(a: Args, name: string, position: number): string[] {
  const v = required(a, name, position);
  const items = Array.isArray(v) ? v : v instanceof VmTuple ? v.items : null;
  if (!items) throw new VmError(`argument '${name}' must be a sequence, got ${v === null ? 'NoneType' : typeName(v)}`);
  return items.map((item) => {
    if (typeof item !== 'string') throw new VmError(`argument '${name}' items must be strings, got ${item === null ? 'NoneType' : typeName(item)}`);
    return item;
  });
}

/** The zk syscalls upstream's parity host answers; undefined for any other id. */
export function zkSyscall(id: string, args: VmValue[], kwargs: [string, VmValue][]): VmValue | undefined {
  const a = argReader(args, kwargs);
  switch (id) {
    case 'zk.shielded_command_nullifier_digest': {
      const inputs = textList(a, 'input_nullifiers', 0);
      if (!inputs.length || inputs.length > MAX_INPUTS) throw new VmError('invalid input nullifier count');
      const fields = inputs.map(parseField);
      while (fields.length < MAX_INPUTS) fields.push(0n);
      return fieldHex(poseidonHash(DOMAIN.commandNullifierDigest, fields));
    }
    case 'zk.shielded_command_binding': {
      const names = ['nullifier_digest', 'target_digest', 'payload_digest', 'relayer_digest', 'expiry_digest', 'chain_digest', 'entrypoint_digest', 'version_digest'];
      const fields = names.map((n, i) => parseField(text(a, n, i)));
      fields.push(u64(a, 'fee', 8), u64(a, 'public_amount', 9));
      return fieldHex(poseidonHash(DOMAIN.commandBinding, fields));
    }
    case 'zk.shielded_command_execution_tag':
      return fieldHex(poseidonHash(DOMAIN.commandExecutionTag, [parseField(text(a, 'nullifier_digest', 0)), parseField(text(a, 'command_binding', 1))]));
    case 'zk.shielded_output_payload_hash':
      return payloadHash(text(a, 'payload_hex', 0));
    case 'zk.shielded_output_payload_hashes':
      return textList(a, 'payload_hexes', 0).map(payloadHash);
  }
  return undefined;
}
