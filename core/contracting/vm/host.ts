import { VmError } from './errors.js';
import type { VmValue } from './values.js';

/**
 * What the VM needs from the world around it — the seam between the pure interpreter and a
 * chain. The devnet implements it over its state store; the sandbox (`runVm`) over memory.
 * It mirrors xian-vm-core's `VmHost` so either host can follow the node's behaviour exactly.
 */

/** Who a call runs as; `entry` is (contract, function) of the transaction. */
export interface VmContext {
  this: string | null;
  caller: string | null;
  signer: string | null;
  owner: string | null;
  entry: readonly [string, string] | null;
  submissionName: string | null;
  now: VmValue;
  blockNum: VmValue;
  blockHash: VmValue;
  chainId: VmValue;
}

export function emptyContext(): VmContext {
  return {
    this: null, caller: null, signer: null, owner: null, entry: null, submissionName: null,
    now: null, blockNum: -1n, blockHash: null, chainId: null,
  };
}

export type ContractTargetKind = 'static_import' | 'dynamic_import' | 'local_handle' | 'factory_call';

/** A cross-contract call the VM asks the host to perform (`handle.f(...)`, `importlib.call`). */
export interface VmContractCall {
  target: { kind: ContractTargetKind; module: string; binding?: string; factory?: string };
  function: string;
  args: VmValue[];
  kwargs: [string, VmValue][];
  /** The calling contract (ctx.this of the caller) — becomes the callee's ctx.caller. */
  callerContract: string | null;
  signer: string | null;
  entry: readonly [string, string] | null;
  submissionName: string | null;
  now: VmValue;
  blockNum: VmValue;
  blockHash: VmValue;
  chainId: VmValue;
}

export interface VmEvent {
  contract: string;
  event: string;
  signer: VmValue;
  caller: VmValue;
  dataIndexed: [string, VmValue][];
  data: [string, VmValue][];
}

export interface VmHost {
  /** Stored value of `<contract>.<binding>`, or undefined when absent. */
  readVariable(contract: string, binding: string): VmValue | undefined;
  /** Stored value of a Hash entry (`key` is the contract-side key value, a tuple for multi-keys). */
  readHash(contract: string, binding: string, key: VmValue): VmValue | undefined;
  /** Entries under `<contract>.<binding>:<prefix>` as (key suffix after `binding:`, value). */
  scanHashEntries(contract: string, binding: string, prefix: string): [string, VmValue][];
  /** Every storage write, in order; read back by `readRecordedStorageWrite` (read-your-writes). */
  recordStorageWrite(key: string, value: VmValue): void;
  readRecordedStorageWrite(key: string): VmValue | undefined;
  emitEvent(event: VmEvent): void;
  /** Runs the call (export check, owner check, 10,000 chi surcharge are the host's) and returns its result. */
  callContract(call: VmContractCall): VmValue;
  /** Any syscall the VM does not implement itself (`contract.exists`, `zk.*`, …). */
  handleSyscall(id: string, args: VmValue[], kwargs: [string, VmValue][]): VmValue;
}

/** A host with nothing behind it (upstream `NoopHost`): reads find nothing, calls fail. */
export class NoopHost implements VmHost {
  readVariable(): undefined {
    return undefined;
  }
  readHash(): undefined {
    return undefined;
  }
  scanHashEntries(): [string, VmValue][] {
    return [];
  }
  recordStorageWrite(): void {}
  readRecordedStorageWrite(): undefined {
    return undefined;
  }
  emitEvent(): void {}
  callContract(call: VmContractCall): VmValue {
    throw new VmError(`host does not support contract call ${call.target.module}.${call.function}`);
  }
  handleSyscall(id: string): VmValue {
    throw new VmError(`unsupported host syscall '${id}'`);
  }
}
