import { decodeTxResultData, type JsonValue, type NewBlockEventValue, type TxEvent } from 'chainhost/chain';
import { toJsonText } from '../http/json-response.js';
import { decodeTx, payloadOf } from '../reads/tx-decoding.js';

/** Server → client messages of `/ws` (dashboard.md §6.2). */
export interface NewBlockMessage {
  type: 'new_block';
  height: number;
  hash: string;
  time: string;
  num_txs: number;
  proposer: string;
  txs: Array<{ tx_hash: string; contract: JsonValue; function: JsonValue; sender: JsonValue; chi_supplied: JsonValue }>;
}

export interface StateChangeMessage {
  type: 'state_change';
  /** The exact state key, e.g. `con_pairs.pairs:1` (from the execution output, never rebuilt). */
  key: string;
  value: string;
  tx_hash: string;
  height: number;
}

export interface ContractEventMessage {
  type: 'contract_event';
  event: string;
  contract: string;
  signer: string;
  caller: string;
  /** `data_indexed` and `data` merged, every value as a string (upstream shape). */
  data: Record<string, string>;
  tx_hash: string;
  height: number;
}

export function newBlockMessage(value: NewBlockEventValue): NewBlockMessage {
  const header = value.block.header;
  const raw = value.block.data?.txs ?? [];
  const txs: NewBlockMessage['txs'] = [];
  for (const base64 of raw) {
    const decoded = decodeTx(base64);
    const payload = payloadOf(decoded);
    if (!('contract' in payload)) continue;
    txs.push({
      tx_hash: decoded.tx_hash,
      contract: payload.contract ?? null,
      function: payload.function ?? null,
      sender: payload.sender ?? null,
      chi_supplied: payload.chi_supplied ?? payload.stamps_supplied ?? null,
    });
  }
  return {
    type: 'new_block',
    height: Number(header.height),
    hash: value.block_id.hash,
    time: header.time,
    num_txs: raw.length,
    proposer: header.proposer_address,
    txs,
  };
}

/**
 * State writes and contract events of one executed transaction, read from its execution output
 * (`result.data`): the keys there are the real state keys. Upstream rebuilt them from the
 * CometBFT `StateChange` attribute names (`.` → `_`, `:` → `__`, reversed lossily), so any key
 * containing `_` came back wrong and never matched a subscription (dashboard.md §6.5).
 */
export function txMessages(tx: TxEvent): { states: StateChangeMessage[]; events: ContractEventMessage[] } {
  const decoded = decodeTxResultData(tx.result.data);
  if (decoded.kind !== 'execution') return { states: [], events: [] };
  const height = Number(tx.height);
  const states = decoded.output.state.map((write) => ({
    type: 'state_change' as const,
    key: write.key,
    value: asText(write.value),
    tx_hash: tx.hash,
    height,
  }));
  // Events are emitted by successful transactions only (cometbft-rpc.md §7).
  const events = decoded.output.status !== 0 ? [] : decoded.output.events.map((e) => {
    const data: Record<string, string> = {};
    for (const part of [e.data_indexed, e.data]) {
      if (part && typeof part === 'object' && !Array.isArray(part)) {
        for (const [k, v] of Object.entries(part)) data[k] = asText(v);
      }
    }
    return {
      type: 'contract_event' as const,
      event: String(e.event ?? 'ContractEvent'),
      contract: String(e.contract ?? ''),
      signer: String(e.signer ?? ''),
      caller: String(e.caller ?? ''),
      data,
      tx_hash: tx.hash,
      height,
    };
  });
  return { states, events };
}

/** Values as strings: text stays as is (decimals are already plain strings), the rest as compact JSON. */
function asText(value: JsonValue | undefined): string {
  if (typeof value === 'string') return value;
  return toJsonText(value ?? null);
}
