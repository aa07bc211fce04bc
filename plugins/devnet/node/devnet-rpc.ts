import { type ExecTxResult, type ResponseCheckTx, type ResultBroadcastTx, type ResultBroadcastTxCommit, type ResultStatus, type ResultUnconfirmedTxs, RpcError } from 'chainhost/chain';
import type { CheckTxResult } from './check-tx.js';
import type { DevnetNode } from './devnet-node.js';
import { MempoolError } from './mempool.js';
import { argsFromJson, intArg, RPC_METHODS, WEBSOCKET_METHODS, type RpcArgs } from './rpc-params.js';
import {
  blockAt, blockByHash, blockchain, blockResults, commitAt, internal, resolveHeight, txByHash, validators,
} from './rpc-blocks.js';
import { blockSearch, txSearch } from './rpc-search.js';
import { broadcastEvidence } from './rpc-evidence.js';
import { genesisChunk } from './rpc-genesis-chunks.js';

/**
 * CometBFT 0.38's RPC over the devnet node: one dispatcher, `handle(method, params)`, with
 * params in JSON-RPC form (int64 as strings, `[]byte` base64, `HexBytes` hex). Results have
 * CometBFT's shapes; failures are RpcError with its codes (-32601 unknown method, -32602 bad
 * params, -32603 "Internal error" with the reason in `data`).
 */
export const NODE_VERSION = '0.38.12';

export class DevnetRpc {
  constructor(readonly node: DevnetNode, private readonly info: { rpcAddress: () => string }) {}

  /**
   * JSON-RPC form. The result comes back directly when it is ready at once (state queries,
   * status) and as a promise when it must wait (a commit, a database-backed query path); a
   * failure is always a rejected promise.
   */
  handle(method: string, params?: unknown): unknown {
    try {
      const specs = RPC_METHODS[method];
      if (!specs) {
        if (WEBSOCKET_METHODS[method]) throw new RpcError(-32601, 'Method not found', `${method} is only available on the WebSocket (/websocket)`);
        throw new RpcError(-32601, 'Method not found');
      }
      return this.call(method, argsFromJson(specs, params));
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /** Typed arguments (as the URI and JSON-RPC forms both convert to); like `handle`, a value or a promise, but a failure may throw. */
  call(method: string, args: RpcArgs): unknown {
    const node = this.node;
    const store = node.store;
    switch (method) {
      case 'health': return this.health();
      case 'status': return this.status();
      case 'net_info': return { listening: true, listeners: ['Listener(@tcp://127.0.0.1:26656)'], n_peers: '0', peers: [] };
      case 'genesis': return { genesis: node.genesis };
      case 'genesis_chunked': return genesisChunk(node.genesis, intArg(args, 'chunk'));
      case 'abci_info': {
        const latest = store.latest();
        return { response: { data: 'chainhost-devnet', version: NODE_VERSION, app_version: '0', last_block_height: String(store.height), last_block_app_hash: latest ? Buffer.from(latest.app_hash, 'hex').toString('base64') : null } };
      }
      case 'block': return blockAt(store, intArg(args, 'height'));
      case 'block_by_hash': return blockByHash(store, bytesArg(args, 'hash'));
      case 'header': return { header: blockAt(store, intArg(args, 'height')).block?.header ?? null };
      case 'header_by_hash': return { header: blockByHash(store, bytesArg(args, 'hash')).block?.header ?? null };
      case 'block_results': return blockResults(store, intArg(args, 'height'));
      case 'commit': return commitAt(store, node.identity, node.chainId, intArg(args, 'height'));
      case 'blockchain': return blockchain(store, intArg(args, 'minHeight'), intArg(args, 'maxHeight'));
      case 'validators': return validators(store, node.identity, intArg(args, 'height'), intArg(args, 'page'), intArg(args, 'per_page'));
      case 'consensus_params': return { block_height: String(resolveHeight(store, intArg(args, 'height'))), consensus_params: node.genesis.consensus_params };
      case 'consensus_state': return { round_state: this.roundState() };
      case 'dump_consensus_state': return { round_state: this.fullRoundState(), peers: [] };
      case 'tx': return txByHash(store, bytesArg(args, 'hash'), args['prove'] === true);
      case 'tx_search': return txSearch(store, String(args['query'] ?? ''), searchOptions(args));
      case 'block_search': return blockSearch(store, String(args['query'] ?? ''), searchOptions(args));
      case 'broadcast_evidence': return broadcastEvidence(args['evidence'] as string | undefined, node.identity.validator.address);
      case 'unconfirmed_txs': return this.unconfirmed(perPage(intArg(args, 'limit')));
      case 'num_unconfirmed_txs': return { ...this.unconfirmed(0), txs: null };
      case 'check_tx': return responseCheckTx(node.checkOnly(txArg(args)));
      case 'broadcast_tx_async': return this.broadcastAsync(txArg(args));
      case 'broadcast_tx_sync': return this.broadcastSync(txArg(args));
      case 'broadcast_tx_commit': return this.broadcastCommit(txArg(args));
      case 'abci_query': {
        const response = node.query.query({ path: String(args['path'] ?? ''), height: intArg(args, 'height'), prove: args['prove'] === true });
        return response instanceof Promise ? response.then((r) => ({ response: r })) : { response };
      }
      default: throw new RpcError(-32601, 'Method not found');
    }
  }

  /**
   * CometBFT's `/health` answers `{}` while the node runs; here it also fails (-32603, HTTP 500)
   * while the block producer is halted, or the block-execution worker restarts after dying, with
   * the reason, so a monitor sees a stalled chain.
   */
  private health(): Record<string, never> {
    const worker = this.node.blockExecutor.status;
    if (worker.lastCrash && !worker.running) {
      throw internal(`the block-execution worker died at ${new Date(worker.lastCrash.at).toISOString()} (${worker.lastCrash.reason}; crashes: ${worker.crashes}); it is restarting`);
    }
    const fault = this.node.producer.fault;
    if (!fault) return {};
    const since = new Date(fault.since).toISOString();
    const next = fault.permanent
      ? 'it does not resume by itself: fix the cause and restart the devnet'
      : `retrying in ${Math.max(0, Math.ceil(((fault.retryAt ?? Date.now()) - Date.now()) / 1000))} s (failed retries: ${fault.attempts}); it resumes by itself once a block can be committed`;
    throw internal(`block production halted since ${since} at height ${this.node.store.height + 1}: ${fault.error.message}; ${next}`);
  }

  status(): ResultStatus {
    const { store, identity, chainId } = this.node;
    const latest = store.latest();
    const earliest = store.block(1);
    return {
      node_info: {
        protocol_version: { p2p: '8', block: '11', app: '0' },
        id: identity.nodeId,
        listen_addr: 'tcp://0.0.0.0:26656',
        network: chainId,
        version: NODE_VERSION,
        channels: '40202122233038606100',
        moniker: 'chainhost-devnet',
        other: { tx_index: 'on', rpc_address: this.info.rpcAddress() },
      },
      sync_info: {
        latest_block_hash: latest?.block_id.hash ?? '',
        latest_app_hash: latest?.app_hash ?? '',
        latest_block_height: String(store.height),
        latest_block_time: latest?.header.time ?? this.node.genesis.genesis_time,
        earliest_block_hash: earliest?.block_id.hash ?? '',
        earliest_app_hash: earliest?.header.app_hash ?? '',
        earliest_block_height: String(earliest ? 1 : 0),
        earliest_block_time: earliest?.header.time ?? this.node.genesis.genesis_time,
        // A devnet whose block producer is halted (a full disk, a patch that cannot apply) is not
        // at the chain's head for a client: it reports what a syncing CometBFT node does.
        catching_up: this.node.producer.fault !== undefined,
      },
      validator_info: {
        address: identity.validator.address,
        pub_key: { type: 'tendermint/PubKeyEd25519', value: Buffer.from(identity.validator.publicKey).toString('base64') },
        voting_power: '10',
      },
    };
  }

  private roundState() {
    const { store, identity } = this.node;
    const latest = store.latest();
    return {
      'height/round/step': `${store.height + 1}/0/1`,
      start_time: latest?.header.time ?? this.node.genesis.genesis_time,
      proposal_block_hash: '',
      locked_block_hash: '',
      valid_block_hash: '',
      height_vote_set: [{ round: 0, prevotes: ['nil-Vote'], prevotes_bit_array: 'BA{1:_} 0/10 = 0.00', precommits: ['nil-Vote'], precommits_bit_array: 'BA{1:_} 0/10 = 0.00' }],
      proposer: { address: identity.validator.address, index: 0 },
    };
  }

  /**
   * `dump_consensus_state`'s full RoundState (consensus/types/round_state.go) of a node idle at
   * the next height: nothing proposed or locked (rounds -1), the one-validator set, no votes yet.
   */
  private fullRoundState() {
    const { store, identity } = this.node;
    const latest = store.latest();
    const validator = {
      address: identity.validator.address,
      pub_key: { type: 'tendermint/PubKeyEd25519', value: Buffer.from(identity.validator.publicKey).toString('base64') },
      voting_power: '10',
      proposer_priority: '0',
    };
    const set = { validators: [validator], proposer: validator };
    const time = latest?.header.time ?? this.node.genesis.genesis_time;
    const empty = (round: number) => ({ round, prevotes: ['nil-Vote'], prevotes_bit_array: 'BA{1:_} 0/10 = 0.00', precommits: ['nil-Vote'], precommits_bit_array: 'BA{1:_} 0/10 = 0.00' });
    return {
      height: String(store.height + 1),
      round: 0,
      step: 1,
      start_time: time,
      commit_time: time,
      validators: set,
      proposal: null,
      proposal_block: null,
      proposal_block_parts: null,
      locked_round: -1,
      locked_block: null,
      locked_block_parts: null,
      valid_round: -1,
      valid_block: null,
      valid_block_parts: null,
      votes: [empty(0)],
      commit_round: -1,
      last_commit: latest ? { votes: ['Vote{...}'], votes_bit_array: 'BA{1:x} 10/10 = 1.00', peer_maj_23s: {} } : null,
      last_validators: set,
      triggered_timeout_precommit: false,
    };
  }

  private unconfirmed(limit: number): ResultUnconfirmedTxs {
    const { mempool } = this.node;
    const txs = mempool.list(limit);
    return { n_txs: String(txs.length), total: String(mempool.size), total_bytes: String(mempool.totalBytes), txs: txs.map((t) => t.raw.toString('base64')) };
  }

  private admit(raw: Buffer): CheckTxResult {
    try {
      return this.node.admit(raw).check;
    } catch (err) {
      if (err instanceof MempoolError) throw internal(err.message);
      throw err;
    }
  }

  private broadcastAsync(raw: Buffer): ResultBroadcastTx {
    const result = this.admit(raw);
    return { code: 0, data: '', log: '', codespace: '', hash: result.hash };
  }

  private broadcastSync(raw: Buffer): ResultBroadcastTx {
    const result = this.admit(raw);
    return { code: result.code, data: '', log: result.log, codespace: '', hash: result.hash };
  }

  private async broadcastCommit(raw: Buffer): Promise<ResultBroadcastTxCommit> {
    const check = this.admit(raw);
    if (check.code !== 0) return { check_tx: responseCheckTx(check), tx_result: emptyExecTxResult(), hash: check.hash, height: '0' };
    try {
      const committed = await this.node.producer.waitForCommit(check.hash, this.node.config.timeout_broadcast_tx_commit_ms);
      return { check_tx: responseCheckTx(check), tx_result: committed.result, hash: check.hash, height: String(committed.height) };
    } catch (err) {
      throw internal(err instanceof Error ? err.message : String(err));
    }
  }
}

/** CometBFT's validatePerPage: missing or ≤ 0 → 30, at most 100. */
function perPage(v: number | undefined): number {
  return v === undefined || v <= 0 ? 30 : Math.min(100, v);
}

function searchOptions(args: RpcArgs) {
  return { page: intArg(args, 'page'), perPage: intArg(args, 'per_page'), orderBy: args['order_by'] as string | undefined, prove: args['prove'] === true };
}

function bytesArg(args: RpcArgs, name: string): Buffer {
  const v = args[name];
  return Buffer.isBuffer(v) ? v : Buffer.alloc(0);
}

function txArg(args: RpcArgs): Buffer {
  const tx = args['tx'];
  if (!Buffer.isBuffer(tx) || tx.length === 0) throw internal('tx is empty');
  return tx;
}

export function responseCheckTx(r: CheckTxResult): ResponseCheckTx {
  return { code: r.code, data: null, log: r.log, info: '', gas_wanted: '0', gas_used: '0', events: [], codespace: '' };
}

function emptyExecTxResult(): ExecTxResult {
  return { code: 0, data: null, log: '', info: '', gas_wanted: '0', gas_used: '0', events: [], codespace: '' };
}

/** The JSON-RPC `error` member for a failure (non-RpcErrors become -32603 with their message). */
export function rpcErrorBody(err: unknown): { code: number; message: string; data: string } {
  if (err instanceof RpcError) return { code: err.code, message: err.message.split(': ')[0]!, data: err.data ?? '' };
  return { code: -32603, message: 'Internal error', data: err instanceof Error ? err.message : String(err) };
}
