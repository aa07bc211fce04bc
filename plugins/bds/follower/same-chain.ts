import type { Knex } from 'knex';
import type { ChainNode } from 'chainhost/chain';
import { BootError } from 'chainhost/plugin';

/**
 * An index holds one chain's history. Started against another chain — a devnet reset in the same
 * home, another chain id — the follower would wait for the old chain's next height and index
 * nothing, silently. So start refuses, naming the index, both chain ids and what to do; a reindex
 * deletes history, which is the operator's call (`chain-bds-reindex --reset`), not the host's.
 */
export async function assertSameChain(knex: Knex, node: ChainNode, where: string): Promise<void> {
  const top = firstRow(await knex.raw(`SELECT height, block_hash FROM blocks ORDER BY height DESC LIMIT 1`));
  if (!top) return;
  const stored = firstRow(await knex.raw(`SELECT value FROM bds_meta WHERE key = 'chain_id'`))?.value as string | undefined;
  let status;
  try {
    status = await node.status();
  } catch {
    return; // a node that does not answer yet: the follower reports it; nothing to compare with
  }
  const nodeChain = status.node_info.network;
  const nodeHeight = Number(status.sync_info.latest_block_height);
  const indexed = Number(top.height);
  const advice = `remove ${where} to index this chain from genesis, or run chain-bds-reindex --reset with this config`;
  if (stored && stored !== nodeChain) {
    throw new BootError('plugin_failed', `the BDS index at ${where} holds chain "${stored}" (up to block ${indexed}) but the node is chain "${nodeChain}"; ${advice}`);
  }
  let same = indexed <= nodeHeight;
  if (same) {
    const block = await node.block(indexed).catch(() => null);
    // A node that pruned that block cannot tell: trust the chain id.
    if (block) same = block.block_id.hash.toUpperCase() === String(top.block_hash).toUpperCase();
  }
  if (!same) {
    throw new BootError('plugin_failed', `the BDS index at ${where} holds another history of chain "${stored ?? nodeChain}" (block ${indexed} ${String(top.block_hash).slice(0, 12)}…; the node is at height ${nodeHeight} with other blocks, e.g. a devnet reset); ${advice}`);
  }
}

function firstRow(result: unknown): Record<string, unknown> | undefined {
  return (result as { rows?: Array<Record<string, unknown>> }).rows?.[0];
}
