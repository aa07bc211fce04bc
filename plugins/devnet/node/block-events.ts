import type { AbciEvent, ExecTxResult, NewBlockEventValue, TxEventValue } from 'chainhost/chain';
import type { EventBus } from './event-bus.js';
import type { EventMap } from './event-query.js';
import type { StoredBlock } from './stored-block.js';

/**
 * The events a committed block publishes (cometbft-rpc.md §5): `NewBlock` (block, id and the
 * FinalizeBlock results), `NewBlockHeader`, and one `Tx` per transaction, each with CometBFT's
 * `events` map. Nothing is built when nobody listens.
 */
export function publishBlock(bus: EventBus, block: StoredBlock): void {
  if (!bus.hasSubscribers) return;
  const newBlock: NewBlockEventValue = {
    block: { header: block.header, data: { txs: block.txs }, evidence: { evidence: [] }, last_commit: block.last_commit },
    block_id: block.block_id,
    result_finalize_block: {
      ...(block.txs_results.length ? { tx_results: block.txs_results } : {}),
      app_hash: Buffer.from(block.app_hash, 'hex').toString('base64'),
    },
  };
  bus.publish({ type: 'tendermint/event/NewBlock', value: newBlock }, { 'tm.event': ['NewBlock'] });
  bus.publish({ type: 'tendermint/event/NewBlockHeader', value: { header: block.header } }, { 'tm.event': ['NewBlockHeader'] });
  block.txs_results.forEach((result, index) => {
    const value: TxEventValue = {
      TxResult: { height: String(block.height), ...(index ? { index } : {}), tx: block.txs[index]!, result },
    };
    bus.publish({ type: 'tendermint/event/Tx', value }, txEventMap(block.tx_hashes[index]!, block.height, result));
  });
}

/** The `events` map of a Tx event: tm.event, tx.hash, tx.height and every indexed attribute. */
export function txEventMap(hash: string, height: number, result: ExecTxResult): EventMap {
  const map: EventMap = { 'tm.event': ['Tx'], 'tx.hash': [hash], 'tx.height': [String(height)] };
  for (const e of result.events ?? []) {
    for (const a of e.attributes) {
      if (!a.index) continue;
      (map[`${e.type}.${a.key}`] ??= []).push(a.value);
    }
  }
  return map;
}

/**
 * The block's applied state patches as a `StatePatch` finalize-block event: the execution list
 * (contracts.md §8) as JSON in `executions`. An indexer following the node over RPC (our BDS)
 * rebuilds its state-patch pseudo-transaction from it; nodes that do not emit it leave BDS to
 * rebuild patches from a local inventory.
 */
export function statePatchEvents(executions: readonly unknown[]): AbciEvent[] {
  if (executions.length === 0) return [];
  return [{ type: 'StatePatch', attributes: [{ key: 'executions', value: JSON.stringify(executions), index: false }] }];
}
