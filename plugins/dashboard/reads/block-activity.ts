import type { CometBft, JsonValue } from 'chainhost/chain';
import { block, blockResults } from './block-reads.js';
import type { ReadContext } from './node-targets.js';
import { payloadOf, type DecodedTx } from './tx-decoding.js';

export interface BlockActivity {
  height: number;
  time: string;
  txs: number;
  /** Chi used by the block's transactions (an exact integer sum). */
  chi: bigint;
}

export interface RecentTx {
  hash: string;
  height: number;
  time: string;
  contract: JsonValue;
  function: JsonValue;
  sender: JsonValue;
  kwargs: JsonValue;
  ok: boolean | null;
  /** The failure text when it failed (exception repr, or a block-level rejection). */
  error: JsonValue;
  events: JsonValue[];
  chi_used: JsonValue;
}

/**
 * Transactions and chi per block for the home page's chart and its latest transactions, from the
 * node (no BDS needed): the block metas give the counts; only blocks that carry transactions are
 * read (`block` + `block_results`, in parallel) for the chi and the transactions.
 */
export async function blockActivity(r: ReadContext, metas: CometBft.BlockMeta[]): Promise<{ blocks: BlockActivity[]; txs: RecentTx[] }> {
  const busy = metas.filter((m) => Number(m.num_txs) > 0);
  const details = new Map(await Promise.all(busy.map(async (m) => {
    const height = Number(m.header.height);
    const [b, results] = await Promise.all([block(r, height), blockResults(r, height)]);
    return [height, { txs: b.decoded_txs, results: results.txs_results ?? [] }] as const;
  })));
  const blocks: BlockActivity[] = [];
  const txs: RecentTx[] = [];
  for (const m of metas) {
    const height = Number(m.header.height);
    const d = details.get(height);
    let chi = 0n;
    for (const res of d?.results ?? []) {
      const used = outcome(res.data_decoded).chi_used;
      if (typeof used === 'number' && Number.isSafeInteger(used)) chi += BigInt(used);
      else if (typeof used === 'string' && /^[0-9]+$/.test(used)) chi += BigInt(used);
    }
    blocks.push({ height, time: m.header.time, txs: Number(m.num_txs), chi });
    (d?.txs ?? []).forEach((tx: DecodedTx, i) => {
      const p = payloadOf(tx);
      const res = d!.results[i];
      const out = outcome(res?.data_decoded);
      txs.push({
        hash: tx.tx_hash, height, time: m.header.time, contract: p.contract ?? null, function: p.function ?? null, sender: p.sender ?? null,
        kwargs: p.kwargs ?? null,
        ok: res === undefined ? null : res.code === 0 && (out.status === undefined || out.status === 0),
        error: out.result ?? out.error ?? res?.log ?? null,
        events: Array.isArray(out.events) ? out.events : [],
        chi_used: out.chi_used ?? null,
      });
    });
  }
  return { blocks, txs };
}

function outcome(value: JsonValue | undefined): Record<string, JsonValue> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, JsonValue>) : {};
}
