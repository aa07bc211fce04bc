import { readNode } from '../../http/node-errors.js';
import type { ReadContext } from '../../reads/node-targets.js';
import { activityChart, blockRow, latestCard, readHomeActivity, txRow } from './home-parts.js';

export interface HomeLiveUpdate {
  /** The latest listed height (the client asks `after` it next time). */
  height: number;
  card: string;
  chart: string;
  /** Rows of the blocks above `after`, newest first (at most a page). */
  blocks: string[];
  txs: string[];
}

/**
 * `/explorer/live?after=<height>`: what the home page's live update swaps in, rendered by the
 * same functions as the page — the latest-block card, the chart, and the rows of the blocks
 * and transactions above `after`.
 */
export async function homeLiveUpdate(r: ReadContext, after: number): Promise<HomeLiveUpdate> {
  const [home, netInfo] = await Promise.all([readHomeActivity(r, undefined), readNode('net_info', () => r.node.netInfo(r.call))]);
  const rpc = r.peer;
  const metas = (home.chain.block_metas ?? []).filter((m) => Number(m.header.height) > after);
  const peers = `${netInfo.n_peers}${netInfo.listening ? ' (listening)' : ''}`;
  return {
    height: Number(home.chain.block_metas?.[0]?.header.height ?? after),
    card: latestCard(home.status, peers, rpc).text,
    chart: activityChart(home.blocks).text,
    blocks: metas.map((m) => blockRow(m, rpc).text),
    txs: home.txs.flatMap((t, i) => (t.height > after ? [txRow(t, home.sentences[i]!, rpc).text] : [])),
  };
}
