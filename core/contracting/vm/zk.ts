import type { VmValue } from './values.js';

/**
 * The shielded-note helper syscalls (upstream xian-zk: Poseidon digests over BN254). Returns
 * undefined for ids this build does not compute, which the host reports as unsupported.
 */
export function zkSyscall(_id: string, _args: VmValue[], _kwargs: [string, VmValue][]): VmValue | undefined {
  return undefined;
}
