import type { ChainIdGuard, ChainNode } from 'chainhost/chain';
import type { QueryPathRegistry, SignerArguments } from 'chainhost/plugin';
import type { BlockTimeSource } from './block-time.js';
import type { DexReader } from './dex-state.js';
import type { CallSender } from './plan-execution.js';
import type { PlanRegistry } from './plan-registry.js';
import type { MarketOptions } from './quote.js';

/** What the DEX tools work with; built once by the plugin, replaced piecewise in tests. */
export interface DexServices {
  node: ChainNode;
  reader: DexReader;
  registry: PlanRegistry;
  /** CHAIN_ID: plans are bound to it. */
  chainId: string;
  market: MarketOptions;
  now(): number;
  /** The shared transaction submitter (resolved when first needed). */
  sender(): CallSender;
  /** Checks CHAIN_ID against the node before anything is signed. */
  guard: ChainIdGuard | null;
  /** How long a submit waits for each call's block. */
  waitTimeoutMs: number;
  /** CHAIN_INCLUDE_RAW: submits answer in full detail, as with `verbose`. */
  includeRaw: boolean;
  /** The node's block time, for the deadline margin a submit needs; null skips the margin check. */
  blockTime: BlockTimeSource | null;
  /** Blocks of margin beyond one per call that a plan's deadline must leave at submit. */
  safetyBlocks: number;
  /** `account` or `private_key` for the submitting tools (the host's shared signer arguments). */
  signers: SignerArguments;
  /** Query paths contributed in this host (BDS, …), consulted before the node for indexed reads. */
  queryPaths(): QueryPathRegistry | null;
}
