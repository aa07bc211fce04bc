import type { ExecTxResult, JsonValue, ResultBlock, ResultBlockchainInfo, ResultBlockResults, ResultTx, ResultUnconfirmedTxs } from 'chainhost/chain';
import { ApiError } from 'chainhost/plugin';
import { readNode } from '../http/node-errors.js';
import type { ReadContext } from './node-targets.js';
import { decodeResultData, decodeTx, type DecodedTx } from './tx-decoding.js';

export type BlockWithTxs = ResultBlock & { decoded_txs: DecodedTx[] };
export type BlockResultsDecoded = Omit<ResultBlockResults, 'txs_results'> & {
  txs_results: Array<ExecTxResult & { data_decoded?: JsonValue }> | null;
};
export type TxWithDecoded = Omit<ResultTx, 'tx_result'> & {
  tx_decoded: DecodedTx;
  tx_result: ExecTxResult & { data_decoded?: JsonValue };
};

/** `/api/blockchain`: CometBFT's block metas (at most 20, highest first). */
export async function blockchain(r: ReadContext, minHeight?: number, maxHeight?: number): Promise<ResultBlockchainInfo> {
  if (minHeight !== undefined && maxHeight !== undefined && minHeight > maxHeight) {
    throw ApiError.badRequest(`min_height (${minHeight}) must not be above max_height (${maxHeight})`, { parameter: 'min_height' });
  }
  return readNode('blockchain', () => r.node.blockchain(minHeight, maxHeight, r.call));
}

/** `/api/block/{height}`: the block plus `decoded_txs` (dashboard.md §4.3). */
export async function block(r: ReadContext, height: number): Promise<BlockWithTxs> {
  const result = await readNode(`block ${height}`, () => r.node.block(height, r.call));
  return { ...result, decoded_txs: (result.block.data.txs ?? []).map(decodeTx) };
}

/** `/api/block_results/{height}`: every `txs_results[i]` with data gains `data_decoded` (§4.4). */
export async function blockResults(r: ReadContext, height: number): Promise<BlockResultsDecoded> {
  const result = await readNode(`block results ${height}`, () => r.node.blockResults(height, r.call));
  return { ...result, txs_results: result.txs_results?.map(withDecodedData) ?? null };
}

/** `/api/tx/{hash}`: the tx plus `tx_decoded` and `tx_result.data_decoded` (§4.5). */
export async function tx(r: ReadContext, hash: string): Promise<TxWithDecoded> {
  const result = await readNode(`transaction ${hash}`, () => r.node.tx(hash, r.call));
  return { ...result, tx_decoded: decodeTx(result.tx), tx_result: withDecodedData(result.tx_result) };
}

/** `/api/unconfirmed_txs`: the mempool as CometBFT lists it, plus `decoded_txs`. */
export async function unconfirmedTxs(r: ReadContext, limit: number): Promise<ResultUnconfirmedTxs & { decoded_txs: DecodedTx[] }> {
  const result = await readNode('unconfirmed_txs', () => r.node.unconfirmedTxs(limit, r.call));
  return { ...result, decoded_txs: (result.txs ?? []).map(decodeTx) };
}

function withDecodedData(result: ExecTxResult): ExecTxResult & { data_decoded?: JsonValue } {
  const decoded = decodeResultData(result.data);
  return decoded === undefined ? result : { ...result, data_decoded: decoded };
}
