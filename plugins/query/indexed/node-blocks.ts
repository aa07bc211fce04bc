import { type BlockHeader, type BlockId, blockTimeOf, type ResultBlock } from 'chainhost/chain';
import { intValue, nodeApiError, nodeCall } from 'chainhost/plugin';
import { mapLimited, type ReadDeps } from '../chain-reads.js';

/**
 * Upstream's RPC fallback for the block reads and the index status (mcp.md §4.6): a node without
 * BDS still has its blocks. Blocks come out in the index's shape (bds.md §6.3: uppercase hashes,
 * block time in ns truncated to µs with its isoformat text, `created_at` = the block time as the
 * indexer writes it), so an answer looks the same from either source.
 */
export type NodeBlock = {
  height: number;
  block_hash: string;
  block_time: number | string;
  block_time_iso: string;
  tx_count: number;
  app_hash: string;
  created_at: string;
};

/** At most this many node calls in flight for one listing (upstream's concurrency). */
const BLOCK_FETCHES = 10;
/** CometBFT's `/blockchain` answers at most 20 metas a call. */
const METAS_PER_CALL = 20;

export class NodeBlocks {
  constructor(private readonly deps: ReadDeps) {}

  /** `/bds_status` from `/status`: what the node knows, `available: false` and a warning alert saying why. */
  async status(noBdsReason: string, signal?: AbortSignal) {
    const status = await nodeCall('get_bds_status: reading the node status', () => this.deps.node.status({ signal }));
    return {
      available: false, worker_running: false, catchup_running: false, catching_up: status.sync_info.catching_up === true, queue_depth: 0,
      current_block_height: intValue(BigInt(status.sync_info.latest_block_height)), height_lag: null, indexed_height: null, spool_pending_count: 0,
      db_status: 'unavailable',
      alerts: [{
        level: 'warning', code: 'bds_unavailable',
        message: `the node has no BDS block index (it answers "${noBdsReason}"); this status comes from the node's /status`,
      }],
    };
  }

  /**
   * `/blocks/…` from `/status` and the node's block metas: newest first, `offset` below the latest
   * height, none below the node's earliest (nor the index's genesis pseudo-block 0: a node has no
   * block 0). Upstream reads one `/block` per height (10 at a time);
   * `/blockchain` carries the same header, hash and tx count for 20 heights a call (100 blocks:
   * 5 calls instead of 100, the same rows).
   */
  async list(limit: number, offset: number, signal?: AbortSignal): Promise<NodeBlock[]> {
    const status = await nodeCall('list_blocks: reading the node status', () => this.deps.node.status({ signal }));
    const top = Number(status.sync_info.latest_block_height) - offset;
    const bottom = Math.max(1, Number(status.sync_info.earliest_block_height) || 1, top - limit + 1);
    const ranges: Array<[number, number]> = [];
    for (let hi = top; hi >= bottom; hi -= METAS_PER_CALL) ranges.push([Math.max(bottom, hi - METAS_PER_CALL + 1), hi]);
    const pages = await mapLimited(ranges, BLOCK_FETCHES, ([lo, hi]) =>
      nodeCall(`list_blocks: reading blocks ${lo}-${hi}`, () => this.deps.node.blockchain(lo, hi, { signal })), signal);
    return pages
      .flatMap((page) => page.block_metas.map((meta) => indexedShape({ block_id: meta.block_id, header: meta.header, txCount: Number(meta.num_txs) })))
      .sort((a, b) => b.height - a.height);
  }

  /** `/block/<h>` from `/block`: null for height 0 (the index's genesis pseudo-block; the node has no block 0) and above the latest height. */
  async at(height: number, signal?: AbortSignal): Promise<NodeBlock | null> {
    if (height < 1) return null;
    try {
      return blockShape(await this.deps.node.block(height, { signal }));
    } catch (err) {
      signal?.throwIfAborted();
      const status = await nodeCall('get_block: reading the node status', () => this.deps.node.status({ signal }));
      if (height > Number(status.sync_info.latest_block_height)) return null;
      throw nodeApiError(err, `get_block: reading block ${height}`);
    }
  }

  /** `/block_by_hash/<h>` from `/block_by_hash`: null when the node has no such block. */
  async byHash(hash: string, signal?: AbortSignal): Promise<NodeBlock | null> {
    return blockShape(await nodeCall('get_block_by_hash: reading the block', () => this.deps.node.blockByHash(hash, { signal })));
  }
}

function blockShape(result: ResultBlock): NodeBlock | null {
  const block = result.block;
  return block ? indexedShape({ block_id: result.block_id, header: block.header, txCount: block.data.txs?.length ?? 0 }) : null;
}

function indexedShape({ block_id, header, txCount }: { block_id: BlockId; header: BlockHeader; txCount: number }): NodeBlock {
  const time = blockTimeOf(header.time);
  return {
    height: Number(header.height),
    block_hash: block_id.hash.toUpperCase(),
    block_time: intValue(time.nanos),
    block_time_iso: time.iso,
    tx_count: txCount,
    app_hash: header.app_hash.toUpperCase(),
    created_at: time.iso,
  };
}
