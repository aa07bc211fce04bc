import type { ChainNode } from 'chainhost/chain';
import type { BlockPayload } from './block-payload.js';
import { genesisPayload, payloadFromRpc, type StatePatchRecord } from './payload-from-rpc.js';

/**
 * Where the follower and the reindexer get finalized blocks. Height 0 is the genesis
 * pseudo-block. `subscribe` is optional: it only lowers latency, polling alone is complete.
 */
export interface BlockSource {
  /** The latest committed height of the source. */
  latestHeight(): Promise<number>;
  /** The lowest height the source still serves (pruned nodes), 1 for a full node. */
  earliestHeight(): Promise<number>;
  fetch(height: number): Promise<BlockPayload>;
  subscribe?(onNewBlock: (height: number) => void): Promise<{ unsubscribe(): Promise<void> }>;
  describe(): string;
}

/** Applied state patches for a height, when the node does not announce them in its block results. */
export type StatePatchSource = (height: number) => Promise<StatePatchRecord | null>;

export class ChainBlockSource implements BlockSource {
  constructor(
    private readonly node: ChainNode,
    private readonly options: { patches?: StatePatchSource; label?: string } = {},
  ) {}

  async latestHeight(): Promise<number> {
    return Number((await this.node.status()).sync_info.latest_block_height);
  }

  async earliestHeight(): Promise<number> {
    const earliest = Number((await this.node.status()).sync_info.earliest_block_height);
    return Number.isFinite(earliest) && earliest > 0 ? earliest : 1;
  }

  async fetch(height: number): Promise<BlockPayload> {
    if (height === 0) return genesisPayload((await this.node.genesis()).genesis);
    const [block, results, patches] = await Promise.all([
      this.node.block(height),
      this.node.blockResults(height),
      this.options.patches ? this.options.patches(height) : Promise.resolve(null),
    ]);
    return payloadFromRpc(block, results, patches);
  }

  async subscribe(onNewBlock: (height: number) => void): Promise<{ unsubscribe(): Promise<void> }> {
    return this.node.subscribeNewBlocks((block) => onNewBlock(Number(block.block.header.height)));
  }

  describe(): string {
    return this.options.label ?? 'the chain node';
  }
}
