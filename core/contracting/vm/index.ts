/**
 * The chain's contract VM (`xian_vm_v1`): value model, interpreter, exact gas (`xvm-gas-1`).
 *
 * Three layers, as in DESIGN.md "Contracts: one engine":
 * - `compileModule(ir)` validates a module's IR once and turns it into closures (names,
 *   host bindings and syscalls resolved at load); cache the result per module.
 * - `VmInstance` runs one module's code against a `Runtime` = a `Meter` (raw gas, budget,
 *   128 KiB write cap, `chi_used = raw // 1000 + 5`) and a `VmHost`; it holds the module's
 *   globals and the storage values it has touched in the transaction.
 * - `VmHost` is the bridge to a chain, shaped like xian-vm-core's: `readVariable`/`readHash`/
 *   `scanHashEntries` read committed state, `recordStorageWrite`/`readRecordedStorageWrite` keep
 *   the transaction's write overlay (read-your-writes), `emitEvent` collects events,
 *   `callContract` runs a cross-contract call (the host checks the export and the owner,
 *   charges the 10,000 surcharge, enters the callee's metering frame and instantiates or
 *   reuses its `VmInstance`), `handleSyscall` answers the syscalls the VM does not compute
 *   (contract metadata, `zk.*`). A devnet host implements it over its state store, exactly as
 *   the node's python bindings do; `Sandbox` implements it over memory for `runVm`.
 */
export { VmError, typeError } from './errors.js';
export * from './values.js';
export { VmDecimal } from './decimal.js';
export { VmDateTime, VmTimeDelta } from './datetime.js';
export { pyStr as vmStr } from './values.js';
export { valuesEqual, strictEqual, compareValues } from './compare.js';
export { compileModule } from './compile.js';
export type { CompiledModule, CompiledFunction } from './compiled.js';
export { VmInstance, Runtime, type StorageSnapshot } from './instance.js';
export { emptyContext, NoopHost, type VmContext, type VmContractCall, type VmEvent, type VmHost } from './host.js';
export * from './meter.js';
export * from './gas.js';
export * from './limits.js';
export { meteringJson, meteringLength } from './metering-json.js';
export { variableStorageKey, hashStorageKey, normalizeHashKey } from './storage-keys.js';
export { fromFixtureJson, fromFixtureKey, toFixtureJson, type JsonLike } from './fixture-codec.js';
export { parseJsonText as parseVmJson, stringifyJson as stringifyVmJson } from './json-text.js';
export { Sandbox } from './sandbox.js';
export { runVm, VmRequestError, DEFAULT_SANDBOX_CHI_BUDGET, MAX_SANDBOX_CHI_BUDGET, type VmRunResult } from './run-vm.js';
export { VmTransaction, type ChainState, type TransactionResult } from './transaction.js';
export { zkSyscall } from './zk.js';
