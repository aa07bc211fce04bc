import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { VM_PROFILE } from './lower.js';

export const ARTIFACT_FORMAT = 'xian_contract_artifact_v1';

/** Upstream's deployment artifact `xian_contract_artifact_v1`. */
export interface ContractArtifact {
  format: typeof ARTIFACT_FORMAT;
  module_name: string;
  vm_profile: typeof VM_PROFILE;
  /** The normalized source. */
  source: string;
  /** The IR's canonical JSON text. */
  vm_ir_json: string;
  hashes: {
    /** sha256 of the submitted text. */
    input_source_sha256: string;
    /** sha256 of the normalized source (the IR's `source_hash`). */
    source_sha256: string;
    vm_ir_sha256: string;
  };
}

export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}

export function buildArtifact(moduleName: string, inputSource: string, normalizedSource: string, vmIrJson: string): ContractArtifact {
  return {
    format: ARTIFACT_FORMAT,
    module_name: moduleName,
    vm_profile: VM_PROFILE,
    source: normalizedSource,
    vm_ir_json: vmIrJson,
    hashes: {
      input_source_sha256: sha256Hex(inputSource),
      source_sha256: sha256Hex(normalizedSource),
      vm_ir_sha256: sha256Hex(vmIrJson),
    },
  };
}
