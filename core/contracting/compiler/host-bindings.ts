/**
 * The host catalogue `xian_vm_v1_host_v1`: every name a contract reaches the chain through, with the
 * id the IR records for it (`host_binding_id`, `syscall_id`, `host_dependencies`). Order matters:
 * a lookup by id returns the first binding with that id (`contract.info` has two).
 */
export interface HostBinding {
  binding: string;
  id: string;
  kind: 'syscall' | 'value' | 'context_field' | 'env_value' | 'type_marker';
  category: string;
}

export const HOST_CATALOG_VERSION = 'xian_vm_v1_host_v1';

const ROWS: [string, string, HostBinding['kind'], string][] = [
  ['Any', 'typing.any', 'type_marker', 'typing'],
  ['Variable', 'storage.variable.new', 'syscall', 'storage'],
  ['Variable.get', 'storage.variable.get', 'syscall', 'storage'],
  ['Variable.set', 'storage.variable.set', 'syscall', 'storage'],
  ['Hash', 'storage.hash.new', 'syscall', 'storage'],
  ['Hash.__getitem__', 'storage.hash.get', 'syscall', 'storage'],
  ['Hash.all', 'storage.hash.all', 'syscall', 'storage'],
  ['Hash.__setitem__', 'storage.hash.set', 'syscall', 'storage'],
  ['ForeignVariable', 'storage.foreign_variable.new', 'syscall', 'storage'],
  ['ForeignVariable.get', 'storage.foreign_variable.get', 'syscall', 'storage'],
  ['ForeignHash', 'storage.foreign_hash.new', 'syscall', 'storage'],
  ['ForeignHash.__getitem__', 'storage.foreign_hash.get', 'syscall', 'storage'],
  ['ForeignHash.all', 'storage.foreign_hash.all', 'syscall', 'storage'],
  ['LogEvent', 'event.log.new', 'syscall', 'event'],
  ['LogEvent.__call__', 'event.log.emit', 'syscall', 'event'],
  ['indexed', 'event.indexed', 'syscall', 'event'],
  ['__Contract', 'contract.handle.new', 'syscall', 'contract'],
  ['Contract.deploy', 'contract.deploy', 'syscall', 'contract'],
  ['Contract.get_info', 'contract.info', 'syscall', 'contract'],
  ['Contract.set_owner', 'contract.set_owner', 'syscall', 'contract'],
  ['Contract.set_developer', 'contract.set_developer', 'syscall', 'contract'],
  ['decimal', 'numeric.decimal.new', 'syscall', 'numeric'],
  ['datetime.datetime', 'time.datetime.new', 'syscall', 'time'],
  ['datetime.timedelta', 'time.timedelta.new', 'syscall', 'time'],
  ['datetime.datetime.strptime', 'time.datetime.strptime', 'syscall', 'time'],
  ['datetime.SECONDS', 'time.seconds', 'value', 'time'],
  ['datetime.MINUTES', 'time.minutes', 'value', 'time'],
  ['datetime.HOURS', 'time.hours', 'value', 'time'],
  ['datetime.DAYS', 'time.days', 'value', 'time'],
  ['datetime.WEEKS', 'time.weeks', 'value', 'time'],
  ['hashlib.sha3_text', 'hash.sha3_256_text', 'syscall', 'hashing'],
  ['hashlib.sha3_hex', 'hash.sha3_256_hex', 'syscall', 'hashing'],
  ['hashlib.sha256_text', 'hash.sha256_text', 'syscall', 'hashing'],
  ['hashlib.sha256_hex', 'hash.sha256_hex', 'syscall', 'hashing'],
  ['crypto.verify', 'crypto.ed25519_verify', 'syscall', 'crypto'],
  ['crypto.key_is_valid', 'crypto.key_is_valid', 'syscall', 'crypto'],
  ['importlib', 'module.importlib', 'value', 'import'],
  ['importlib.import_module', 'contract.import', 'syscall', 'import'],
  ['importlib.exists', 'contract.exists', 'syscall', 'import'],
  ['importlib.has_export', 'contract.has_export', 'syscall', 'import'],
  ['importlib.call', 'contract.call', 'syscall', 'import'],
  ['importlib.enforce_interface', 'contract.enforce_interface', 'syscall', 'import'],
  ['importlib.owner_of', 'contract.owner_of', 'syscall', 'import'],
  ['importlib.contract_info', 'contract.info', 'syscall', 'import'],
  ['importlib.code_hash', 'contract.code_hash', 'syscall', 'import'],
  ['importlib.Func', 'contract.interface.func', 'syscall', 'import'],
  ['importlib.Var', 'contract.interface.var', 'syscall', 'import'],
  ['hashlib', 'module.hashlib', 'value', 'hashing'],
  ['crypto', 'module.crypto', 'value', 'crypto'],
  ['datetime', 'module.datetime', 'value', 'time'],
  ['random', 'module.random', 'value', 'random'],
  ['zk', 'module.zk', 'value', 'zk'],
  ['__contract_export__', 'contract.export_call', 'syscall', 'contract'],
  ['random.seed', 'random.seed', 'syscall', 'random'],
  ['random.shuffle', 'random.shuffle', 'syscall', 'random'],
  ['random.getrandbits', 'random.getrandbits', 'syscall', 'random'],
  ['random.randrange', 'random.randrange', 'syscall', 'random'],
  ['random.randint', 'random.randint', 'syscall', 'random'],
  ['random.choice', 'random.choice', 'syscall', 'random'],
  ['random.choices', 'random.choices', 'syscall', 'random'],
  ['zk.is_available', 'zk.is_available', 'syscall', 'zk'],
  ['zk.has_verifying_key', 'zk.has_verifying_key', 'syscall', 'zk'],
  ['zk.get_vk_info', 'zk.get_vk_info', 'syscall', 'zk'],
  ['zk.verify_groth16_bn254', 'zk.verify_groth16_bn254', 'syscall', 'zk'],
  ['zk.verify_groth16', 'zk.verify_groth16', 'syscall', 'zk'],
  ['zk.clear_prepared_vk_cache', 'zk.clear_prepared_vk_cache', 'syscall', 'zk'],
  ['zk.clear_verified_proof_cache', 'zk.clear_verified_proof_cache', 'syscall', 'zk'],
  ['zk.warm_verified_proofs', 'zk.warm_verified_proofs', 'syscall', 'zk'],
  ['zk.shielded_note_append_commitments', 'zk.shielded_note_append_commitments', 'syscall', 'zk'],
  ['zk.shielded_command_nullifier_digest', 'zk.shielded_command_nullifier_digest', 'syscall', 'zk'],
  ['zk.shielded_command_binding', 'zk.shielded_command_binding', 'syscall', 'zk'],
  ['zk.shielded_command_execution_tag', 'zk.shielded_command_execution_tag', 'syscall', 'zk'],
  ['zk.shielded_command_public_inputs', 'zk.shielded_command_public_inputs', 'syscall', 'zk'],
  ['zk.shielded_deposit_public_inputs', 'zk.shielded_deposit_public_inputs', 'syscall', 'zk'],
  ['zk.shielded_output_payload_hashes', 'zk.shielded_output_payload_hashes', 'syscall', 'zk'],
  ['zk.shielded_output_payload_hash', 'zk.shielded_output_payload_hash', 'syscall', 'zk'],
  ['zk.shielded_transfer_public_inputs', 'zk.shielded_transfer_public_inputs', 'syscall', 'zk'],
  ['zk.shielded_withdraw_public_inputs', 'zk.shielded_withdraw_public_inputs', 'syscall', 'zk'],
  ['ctx.caller', 'context.caller', 'context_field', 'context'],
  ['ctx.signer', 'context.signer', 'context_field', 'context'],
  ['ctx.this', 'context.this', 'context_field', 'context'],
  ['ctx.owner', 'context.owner', 'context_field', 'context'],
  ['ctx.entry', 'context.entry', 'context_field', 'context'],
  ['ctx.submission_name', 'context.submission_name', 'context_field', 'context'],
  ['now', 'env.now', 'env_value', 'environment'],
  ['block_num', 'env.block_num', 'env_value', 'environment'],
  ['block_hash', 'env.block_hash', 'env_value', 'environment'],
  ['chain_id', 'env.chain_id', 'env_value', 'environment'],
];

export const HOST_BINDINGS: readonly HostBinding[] = ROWS.map(([binding, id, kind, category]) => ({ binding, id, kind, category }));

const byPath = new Map<string, HostBinding>();
const byId = new Map<string, HostBinding>();
for (const binding of HOST_BINDINGS) {
  if (!byPath.has(binding.binding)) byPath.set(binding.binding, binding);
  if (!byId.has(binding.id)) byId.set(binding.id, binding);
}

export function hostBindingByPath(path: string): HostBinding | undefined {
  return byPath.get(path);
}

export function hostBindingById(id: string): HostBinding | undefined {
  return byId.get(id);
}

/** Module names a contract may alias at module level (`I = importlib`). */
export const HOST_MODULES: ReadonlySet<string> = new Set(['importlib', 'hashlib', 'crypto', 'datetime', 'random', 'zk']);
