import { createHash } from 'node:crypto';
import type { JsonObject, JsonValue } from '../../../../core/chain/canonical-json.js';
import { isoFromNanos, parsePayload, serializePayload, type BlockPayload, type BlockPayloadTx } from '../../../../plugins/bds/block/block-payload.js';
import type { BlockSource } from '../../../../plugins/bds/block/chain-block-source.js';
import { XSC001_SOURCE as XSC001_SAMPLE_SOURCE } from '../../../../plugins/devnet/engine/contracts/xsc001-token.js';

/**
 * A deterministic chain of block payloads in the shape the RPC block source produces, with
 * every feature BDS indexes: transfers with events and rewards, failed transactions, a token
 * deployment, shielded outputs with tags, and a governed state patch. It doubles as a
 * BlockSource whose availability tests can switch off.
 */
export interface SyntheticOptions {
  txsPerBlock?: number;
  senders?: number;
  /** Deploy a token at height 2, shielded outputs at 3, a state patch at 4 (default true). */
  features?: boolean;
  chainId?: string;
  startNanos?: bigint;
}

export const GENESIS_ENTRIES: Array<{ key: string; value: JsonValue }> = [
  { key: 'currency.balances:founder', value: { __fixed__: '1000000' } },
  { key: 'currency.__source__', value: 'balances = Hash(default_value=0)\n' },
  { key: 'currency.metadata:token_name', value: 'Native' },
];

export function sha(text: string): string {
  return createHash('sha256').update(text).digest('hex').toUpperCase();
}

export function senderOf(i: number): string {
  return `sender_${String(i).padStart(4, '0')}`;
}

function obj(entries: Record<string, unknown>): JsonObject {
  return Object.assign(Object.create(null), entries) as JsonObject;
}

export class SyntheticChain implements BlockSource {
  readonly options: Required<SyntheticOptions>;
  private readonly blocks: BlockPayload[] = [];
  private readonly listeners = new Set<(height: number) => void>();
  private nonces = new Map<string, number>();
  available = true;
  fetchCount = 0;
  earliest = 1;

  constructor(options: SyntheticOptions = {}) {
    this.options = {
      txsPerBlock: 3, senders: 5, features: true, chainId: 'chain-local-1', startNanos: 1_767_225_600_000_000_000n, ...options,
    };
  }

  get height(): number {
    return this.blocks.length;
  }

  /** Appends `count` blocks and notifies subscribers. */
  mine(count = 1): void {
    for (let i = 0; i < count; i++) this.blocks.push(this.build(this.blocks.length + 1));
    for (const l of this.listeners) l(this.height);
  }

  payload(height: number): BlockPayload {
    if (height === 0) return this.genesis();
    const p = this.blocks[height - 1];
    if (!p) throw new Error(`synthetic chain has no block ${height}`);
    return parsePayload(serializePayload(p)); // a fresh copy, as decoding from RPC would give
  }

  async latestHeight(): Promise<number> {
    this.check();
    return this.height;
  }

  async earliestHeight(): Promise<number> {
    this.check();
    return this.earliest;
  }

  async fetch(height: number): Promise<BlockPayload> {
    this.check();
    this.fetchCount++;
    if (height > 0 && height < this.earliest) throw new Error(`height ${height} is not available, lowest height is ${this.earliest}`);
    return this.payload(height);
  }

  async subscribe(onNewBlock: (height: number) => void): Promise<{ unsubscribe(): Promise<void> }> {
    this.check();
    this.listeners.add(onNewBlock);
    return { unsubscribe: async () => void this.listeners.delete(onNewBlock) };
  }

  describe(): string {
    return 'synthetic chain';
  }

  private check(): void {
    if (!this.available) throw new Error('synthetic node unavailable');
  }

  genesis(): BlockPayload {
    return {
      version: 1, block_meta: { chain_id: this.options.chainId, hash: 'GENESIS', height: 0, nanos: '0' },
      block_time: '1970-01-01T00:00:00+00:00', app_hash: 'GENESIS', block_tx_count: 0, transactions: [],
      state_patches: [], state_patch_hash: null, genesis: GENESIS_ENTRIES,
    };
  }

  private build(height: number): BlockPayload {
    const o = this.options;
    const nanos = o.startNanos + BigInt(height) * 1_000_123_456n - (BigInt(height) * 1_000_123_456n) % 1000n;
    const txs: BlockPayloadTx[] = [];
    const count = o.txsPerBlock;
    for (let i = 0; i < count; i++) {
      if (o.features && height === 2 && i === 0) txs.push(this.tx(height, i, 'submission', 'submit_contract', this.deploy(height, nanos)));
      else if (o.features && height === 3 && i === 0) txs.push(this.tx(height, i, 'con_shielded', 'deposit_shielded', this.shielded()));
      else txs.push(this.tx(height, i, 'currency', 'transfer', this.transfer(height, i)));
    }
    const patch = o.features && height === 4;
    const executions: JsonValue[] = patch
      ? [obj({
          patch_id: 'fix-balance', proposal_id: 1, bundle_hash: 'ab'.repeat(32), execution_hash: 'cd'.repeat(32), activation_height: height,
          governance_contract: 'governance', summary: 'fix', uri: '', emergency: false,
          changes: [obj({ key: 'currency.balances:patched', value: '42', comment: 'restore' }), obj({ key: 'con_token.metadata:token_symbol', value: 'TKN2', comment: 'rename' })],
        })]
      : [];
    return {
      version: 1,
      block_meta: { chain_id: o.chainId, hash: sha(`block:${o.chainId}:${height}`), height, nanos: nanos.toString() },
      block_time: isoFromNanos(nanos),
      app_hash: sha(`app:${o.chainId}:${height}`),
      parent_hash: height > 1 ? sha(`block:${o.chainId}:${height - 1}`) : null,
      block_tx_count: count + 1, // one more tx was rejected inside the block and is not indexed
      transactions: txs,
      state_patches: executions,
      state_patch_hash: patch ? 'ef'.repeat(32) : null,
    };
  }

  private tx(height: number, index: number, contract: string, fn: string, body: { sender: string; kwargs: JsonObject; output: JsonObject }): BlockPayloadTx {
    const nonce = (this.nonces.get(body.sender) ?? 0) + 1;
    this.nonces.set(body.sender, nonce);
    const payload = obj({ chain_id: this.options.chainId, chi_supplied: 1000, contract, function: fn, kwargs: body.kwargs, nonce, sender: body.sender });
    const envelope = obj({ metadata: obj({ signature: 'aa'.repeat(64) }), payload });
    const hash = sha(`tx:${this.options.chainId}:${height}:${index}`);
    return { tx_index: index, envelope, payload, tx_result: obj({ ...body.output, hash }) };
  }

  private transfer(height: number, index: number): { sender: string; kwargs: JsonObject; output: JsonObject } {
    const sender = senderOf((height * 7 + index) % this.options.senders);
    const to = senderOf((height * 7 + index + 1) % this.options.senders);
    const failed = (height + index) % 10 === 0;
    const amount = String(index + 1);
    const fee = obj({ key: `currency.balances:${sender}`, value: `${1000 - height}.5` });
    if (failed) {
      return { sender, kwargs: obj({ amount: obj({ __fixed__: amount }), to }), output: obj({ chi_used: 12, events: [], result: "AssertionError('Not enough coins to send!')", reward_records: null, rewards: null, state: [fee], status: 1 }) };
    }
    return {
      sender,
      kwargs: obj({ amount: obj({ __fixed__: amount }), to }),
      output: obj({
        chi_used: 20 + index,
        events: [obj({ caller: sender, contract: 'currency', data: obj({ amount }), data_indexed: obj({ from: sender, to }), event: 'Transfer', signer: sender })],
        result: 'None',
        reward_records: [
          obj({ recipient_key: 'dev_key', source_contract: 'currency', type: 'developer_reward', value: '0.25' }),
          obj({ recipient_key: 'validator_key', source_contract: 'currency', type: 'validator_reward', value: '0.5', validator_key: 'validator_key' }),
        ],
        rewards: obj({ developer_reward: obj({ dev_key: '0.25' }), validator_reward: obj({ validator_key: '0.5' }) }),
        state: [fee, obj({ key: `currency.balances:${to}`, value: `${100 + height}` }), obj({ key: 'currency.balances:dev_key', value: `${height}.25` })],
        status: 0,
      }),
    };
  }

  private deploy(height: number, nanos: bigint): { sender: string; kwargs: JsonObject; output: JsonObject } {
    const sender = senderOf(0);
    const d = new Date(Number(nanos / 1_000_000n));
    const time = [d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), 0];
    return {
      sender,
      kwargs: obj({ name: 'con_token', code: XSC001_SAMPLE_SOURCE }),
      output: obj({
        chi_used: 500, events: [], result: 'None', reward_records: null, rewards: null, status: 0,
        state: [
          obj({ key: `con_token.__source__`, value: XSC001_SAMPLE_SOURCE }),
          obj({ key: `con_token.__submitted__`, value: obj({ __time__: time }) }),
          obj({ key: `con_token.balances:${sender}`, value: '1000000' }),
          obj({ key: `con_token.balances:${senderOf(1)}`, value: '0' }),
          obj({ key: 'con_token.metadata:token_name', value: 'Token' }),
          obj({ key: 'con_token.metadata:token_symbol', value: 'TKN' }),
          obj({ key: 'con_token.metadata:token_logo_url', value: 'https://example.invalid/tkn.png' }),
          obj({ key: `currency.balances:${sender}`, value: `${1000 - height}` }),
        ],
      }),
    };
  }

  private shielded(): { sender: string; kwargs: JsonObject; output: JsonObject } {
    const sender = senderOf(2);
    const payloadHex = (tags: Array<[string, string]>) =>
      '0x' + Buffer.from(JSON.stringify({ ciphertexts: tags.map(([s, d]) => ({ ciphertext: 'x', discovery_tag: d, ephemeral_public_key: 'k', label: 'l', nonce: 'n', sync_hint: s })), version: 2 })).toString('hex');
    const payloads = [payloadHex([['0xsync_a', '0xdisc_1']]), payloadHex([['0xsync_b', '0xdisc_2']]), 'not-hex'];
    return {
      sender,
      kwargs: obj({ amount: 5, old_root: '0x00', output_commitments: ['0xc0', '0xc1', '0xc2'], proof_hex: '0x', output_payloads: payloads }),
      output: obj({
        chi_used: 900, result: 'None', reward_records: null, rewards: null, status: 0,
        state: [obj({ key: 'con_shielded.note_count', value: 3 })],
        events: [obj({
          caller: sender, contract: 'con_shielded', signer: sender, event: 'ShieldedOutputsCommitted',
          data_indexed: obj({ new_root: '0x' + '11'.repeat(32) }),
          data: obj({ action: 'deposit', note_index_start: 0, output_count: 3, commitments_blob: '0xc0|0xc1|0xc2', payload_hashes_blob: '0xh0|0xh1|0xh2' }),
        })],
      }),
    };
  }
}
