import { blockTimeOf } from '../../../core/chain/block-time.js';
import type { ResultBlock } from '../../../core/chain/rpc/cometbft-types.js';
import { intValue, nodeApiError, nodeCall } from '../../../core/tools/chain-schemas.js';
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

/** At most this many `/block` calls in flight for one listing (upstream's concurrency). */
const BLOCK_FETCHES = 10;

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

  /** `/blocks/…` from `/status` and `/block?height`: newest first, `offset` below the latest height, none below the node's earliest. */
  async list(limit: number, offset: number, signal?: AbortSignal): Promise<NodeBlock[]> {
    const status = await nodeCall('list_blocks: reading the node status', () => this.deps.node.status({ signal }));
    const latest = Number(status.sync_info.latest_block_height);
    const earliest = Math.max(1, Number(status.sync_info.earliest_block_height) || 1);
    const heights: number[] = [];
    for (let h = latest - offset; h >= earliest && heights.length < limit; h--) heights.push(h);
    const blocks = await mapLimited(heights, BLOCK_FETCHES, (h) => this.at(h, signal), signal);
    return blocks.filter((b): b is NodeBlock => b !== null);
  }

  /** `/block/<h>` from `/block`: null for height 0 (the index's genesis pseudo-block; the node has no block 0) and above the latest height. */
  async at(height: number, signal?: AbortSignal): Promise<NodeBlock | null> {
    if (height < 1) return null;
    try {
      return indexedShape(await this.deps.node.block(height, { signal }));
    } catch (err) {
      signal?.throwIfAborted();
      const status = await nodeCall('get_block: reading the node status', () => this.deps.node.status({ signal }));
      if (height > Number(status.sync_info.latest_block_height)) return null;
      throw nodeApiError(err, `get_block: reading block ${height}`);
    }
  }

  /** `/block_by_hash/<h>` from `/block_by_hash`: null when the node has no such block. */
  async byHash(hash: string, signal?: AbortSignal): Promise<NodeBlock | null> {
    return indexedShape(await nodeCall('get_block_by_hash: reading the block', () => this.deps.node.blockByHash(hash, { signal })));
  }
}

function indexedShape(result: ResultBlock): NodeBlock | null {
  const block = result.block;
  if (!block) return null;
  const time = blockTimeOf(block.header.time);
  return {
    height: Number(block.header.height),
    block_hash: result.block_id.hash.toUpperCase(),
    block_time: intValue(time.nanos),
    block_time_iso: time.iso,
    tx_count: block.data.txs?.length ?? 0,
    app_hash: block.header.app_hash.toUpperCase(),
    created_at: time.iso,
  };
}
