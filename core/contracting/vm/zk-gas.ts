import { VmError } from './errors.js';
import { VmTuple, type VmValue } from './values.js';

/** Gas the VM charges before handing a zk syscall to the host (upstream `explicit_syscall_metering_cost`). */
function stringList(v: VmValue, label: string): string[] {
  const items = Array.isArray(v) ? v : v instanceof VmTuple ? v.items : null;
  if (!items || items.some((x) => typeof x !== 'string')) throw new VmError(`${label} must be a list of strings`);
  return items as string[];
}

function asText(v: VmValue): string {
  if (typeof v !== 'string') throw new VmError(`expected string value, got ${v === null ? 'none' : typeof v}`);
  return v;
}

/** Bytes of a `0x`-prefixed, even-length hex payload; anything else counts 0. */
export function hexPayloadBytes(value: string): number {
  if (!value.startsWith('0x')) return 0;
  const payload = value.slice(2);
  return payload.length % 2 ? 0 : payload.length / 2;
}

export function syscallGas(id: string, args: readonly VmValue[], kwargs: readonly unknown[]): number | undefined {
  const positional = (n: number, name: string): void => {
    if (kwargs.length || args.length !== n) {
      throw new VmError(`zk.${name}() expects ${n === 1 ? 'one positional argument' : 'three positional arguments'}`);
    }
  };
  switch (id) {
    case 'zk.verify_groth16_bn254': {
      positional(3, 'verify_groth16_bn254');
      const inputs = stringList(args[2]!, 'public_inputs');
      const bytes = hexPayloadBytes(asText(args[0]!)) + hexPayloadBytes(asText(args[1]!)) + inputs.reduce((n, x) => n + hexPayloadBytes(x), 0);
      return 750_000 + inputs.length * 50_000 + bytes * 50;
    }
    case 'zk.verify_groth16': {
      positional(3, 'verify_groth16');
      const inputs = stringList(args[2]!, 'public_inputs');
      const bytes = Buffer.byteLength(asText(args[0]!)) + hexPayloadBytes(asText(args[1]!)) + inputs.reduce((n, x) => n + hexPayloadBytes(x), 0);
      return 500_000 + 250_000 + inputs.length * 50_000 + bytes * 25;
    }
    case 'zk.shielded_note_append_commitments':
      positional(3, 'shielded_note_append_commitments');
      return 250_000 + stringList(args[2]!, 'commitments').length * 500_000;
    case 'zk.shielded_command_nullifier_digest':
      positional(1, 'shielded_command_nullifier_digest');
      return 100_000 + stringList(args[0]!, 'input_nullifiers').length * 50_000;
    case 'zk.shielded_command_binding':
      return 100_000;
    case 'zk.shielded_command_execution_tag':
      return 50_000;
    case 'zk.shielded_output_payload_hash': {
      positional(1, 'shielded_output_payload_hash');
      const payload = asText(args[0]!);
      return payload ? hexPayloadBytes(payload) : 0;
    }
  }
  return undefined;
}
