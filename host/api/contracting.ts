/**
 * `chainhost/contracting` — the published contract toolchain (package.json `exports`): the chain's
 * compiler (`compileContract`: source → `xian_contract_artifact_v1` with the `xian_ir_v1` IR,
 * byte-identical to the chain's own compiler) and its diagnostics, and the chain's VM (`runVm`:
 * `xian_vm_v1` with its value model and exact gas schedule).
 */
export * from '../../core/contracting/index.js';
