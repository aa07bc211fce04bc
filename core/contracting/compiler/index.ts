/** The chain's contract compiler: source → `xian_contract_artifact_v1` with the `xian_ir_v1` IR. */
export { compileContract, type CompileResult } from './compile.js';
export { ARTIFACT_FORMAT, sha256Hex, type ContractArtifact } from './artifact.js';
export type { CompilerDiagnostic, DiagnosticRange } from './diagnostics.js';
export { IR_VERSION, VM_PROFILE } from './lower.js';
export { HOST_BINDINGS, HOST_CATALOG_VERSION, type HostBinding } from './host-bindings.js';
export { MAX_SOURCE_BYTES, MAX_SYNTAX_DEPTH, SOURCE_TOO_LARGE_CODE, SOURCE_TOO_LARGE_MESSAGE, TOO_DEEPLY_NESTED_CODE } from './limits.js';
