import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readingHomeFile } from './home-file-error.js';
import { dirname, join } from 'node:path';
import { parse as parseToml } from 'smol-toml';

/**
 * The node's application settings, read from `<home>/config/chain.toml` (upstream
 * `config/xian.toml`): top-level keys, defaults as upstream (simulate.md §5, transactions.md
 * §6-8). The file is written with every default on first start so an operator can see and edit
 * what the node uses; keys the devnet does not know are ignored.
 */
export interface NodeConfig {
  simulation_enabled: boolean;
  simulation_max_concurrency: number;
  simulation_timeout_ms: number;
  simulation_max_chi: number;
  tx_fee_mode: 'paid_metered' | 'free_metered';
  free_tx_max_chi: number;
  free_block_max_chi: number;
  max_pending_nonces_per_sender: number;
  pending_nonce_reservation_ttl_seconds: number;
  /** CometBFT mempool `max_tx_bytes` (raw tx bytes = the hex text). */
  max_tx_bytes: number;
  /** CometBFT mempool `size` (number of transactions). */
  mempool_size: number;
  /** CometBFT consensus param `block.max_bytes`. */
  max_block_bytes: number;
  /** CometBFT `timeout_broadcast_tx_commit`. */
  timeout_broadcast_tx_commit_ms: number;
  /** Write a full state snapshot every N committed blocks (the block log is the WAL in between). */
  snapshot_interval_blocks: number;
  /** fsync the block log on every commit (turn off only for throwaway test chains). */
  fsync: boolean;
}

export const DEFAULT_NODE_CONFIG: Readonly<NodeConfig> = Object.freeze({
  simulation_enabled: true,
  simulation_max_concurrency: 2,
  simulation_timeout_ms: 3000,
  simulation_max_chi: 1_000_000,
  tx_fee_mode: 'paid_metered',
  free_tx_max_chi: 1_000_000,
  free_block_max_chi: 20_000_000,
  max_pending_nonces_per_sender: 128,
  pending_nonce_reservation_ttl_seconds: 60,
  max_tx_bytes: 4_194_304,
  mempool_size: 5000,
  max_block_bytes: 22_020_096,
  timeout_broadcast_tx_commit_ms: 10_000,
  snapshot_interval_blocks: 500,
  fsync: true,
});

const POSITIVE_INTEGER_KEYS = [
  'simulation_max_concurrency', 'simulation_timeout_ms', 'simulation_max_chi', 'free_tx_max_chi',
  'free_block_max_chi', 'max_pending_nonces_per_sender', 'max_tx_bytes', 'mempool_size', 'max_block_bytes',
  'timeout_broadcast_tx_commit_ms', 'snapshot_interval_blocks',
] as const;

export class NodeConfigError extends Error {
  constructor(file: string, key: string, value: unknown, expected: string) {
    super(`${file}: ${key} = ${JSON.stringify(value)} is invalid; expected ${expected}`);
    this.name = 'NodeConfigError';
  }
}

export function nodeConfigPath(home: string): string {
  return join(home, 'config', 'chain.toml');
}

/** Reads `<home>/config/chain.toml`, creating it with the defaults when absent; `overrides` win over the file. */
export function loadNodeConfig(home: string, overrides: Partial<NodeConfig> = {}): NodeConfig {
  const file = nodeConfigPath(home);
  if (!existsSync(file)) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, renderNodeConfig(DEFAULT_NODE_CONFIG));
  }
  const raw = readingHomeFile(file, CONFIG_ADVICE, () => parseToml(readFileSync(file, 'utf8')) as Record<string, unknown>);
  const config: NodeConfig = { ...DEFAULT_NODE_CONFIG };
  const target = config as unknown as Record<string, unknown>;
  for (const key of Object.keys(DEFAULT_NODE_CONFIG) as Array<keyof NodeConfig>) {
    if (raw[key] === undefined) continue;
    target[key] = typeof raw[key] === 'bigint' ? Number(raw[key]) : raw[key];
  }
  Object.assign(config, overrides);
  readingHomeFile(file, CONFIG_ADVICE, () => validate(config, file));
  return config;
}

const CONFIG_ADVICE = 'fix it, or delete the file to have it written again with the defaults';

function validate(config: NodeConfig, file: string): void {
  for (const key of ['simulation_enabled', 'fsync'] as const) {
    if (typeof config[key] !== 'boolean') throw new NodeConfigError(file, key, config[key], 'true or false');
  }
  for (const key of POSITIVE_INTEGER_KEYS) {
    const v = config[key];
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v <= 0) throw new NodeConfigError(file, key, v, 'an integer > 0');
  }
  const ttl = config.pending_nonce_reservation_ttl_seconds;
  if (typeof ttl !== 'number' || !(ttl > 0)) throw new NodeConfigError(file, 'pending_nonce_reservation_ttl_seconds', ttl, 'a number > 0');
  if (config.tx_fee_mode !== 'paid_metered' && config.tx_fee_mode !== 'free_metered') {
    throw new NodeConfigError(file, 'tx_fee_mode', config.tx_fee_mode, '"paid_metered" or "free_metered"');
  }
}

/** Updates keys in `<home>/config/chain.toml` (used by tests and operators' scripts); takes effect on the next open. */
export function writeNodeConfig(home: string, patch: Partial<NodeConfig>): void {
  const file = nodeConfigPath(home);
  const current = existsSync(file) ? (parseToml(readFileSync(file, 'utf8')) as Record<string, unknown>) : {};
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, renderNodeConfig({ ...DEFAULT_NODE_CONFIG, ...current, ...patch } as NodeConfig));
}

function renderNodeConfig(config: Readonly<NodeConfig>): string {
  const line = (key: keyof NodeConfig) => `${key} = ${typeof config[key] === 'string' ? JSON.stringify(config[key]) : String(config[key])}`;
  return [
    '# chainhost devnet application settings (upstream: config/xian.toml).',
    '# Top-level keys; edit and restart the devnet to apply.',
    '',
    '# Dry runs (abci_query /simulate_tx/<hex>)',
    line('simulation_enabled'),
    line('simulation_max_concurrency'),
    line('simulation_timeout_ms'),
    line('simulation_max_chi'),
    '',
    '# Fees: "paid_metered" or "free_metered"',
    line('tx_fee_mode'),
    line('free_tx_max_chi'),
    line('free_block_max_chi'),
    '',
    '# Nonce reservations of CheckTx',
    line('max_pending_nonces_per_sender'),
    line('pending_nonce_reservation_ttl_seconds'),
    '',
    '# CometBFT-side limits the devnet emulates',
    line('max_tx_bytes'),
    line('mempool_size'),
    line('max_block_bytes'),
    line('timeout_broadcast_tx_commit_ms'),
    '',
    '# Storage',
    line('snapshot_interval_blocks'),
    line('fsync'),
    '',
  ].join('\n');
}
