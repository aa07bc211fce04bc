import type { JsonObject } from 'chainhost/chain';
import { CANDLE_INTERVALS, decimalText, listPairs, pairDetail, PAIRS_CONTRACT, type CandleInterval, type PairRow } from '../../reads/dex-reads.js';
import type { ReadContext } from '../../reads/node-targets.js';
import { addressLink, amount, amt, blockLink, contractLink, href, kv, needsBds, pager, pairLink, stateLink, table, text, tokenLink, txLink, when, age } from '../format.js';
import { html, type SafeHtml } from '../html.js';
import type { PageView } from '../layout.js';
import { candleChart } from '../candle-chart.js';

const PAGE = 20;
/** Candles per chart: the time axis has this many slots. */
export const CHART_CANDLES = 60;
const INTERVAL_SECONDS: Record<CandleInterval, number> = { '1m': 60, '5m': 300, '15m': 900, '1h': 3600, '4h': 14_400, '1d': 86_400, '1w': 604_800 };

function volumeCell(v: PairRow['volume24h']): SafeHtml {
  if (!v.ok) return html`<span class="muted" title="${v.reason}">needs BDS</span>`;
  return html`<span class="num">${amt(v.value.token0)}</span> / <span class="num">${amt(v.value.token1)}</span> <span class="muted">(${v.value.trades} trades)</span>`;
}

/** `/explorer/dex`: every pair of the registry with its reserves, price and 24 h volume. */
export async function dexPage(r: ReadContext, offset: number): Promise<PageView> {
  const { total, items } = await listPairs(r, { offset, limit: PAGE });
  const rpc = r.peer;
  const rows = items.map((p) => html`<tr><td>${pairLink(p.id, `#${p.id}`, rpc)}</td>
<td>${pairLink(p.id, `${p.token0} / ${p.token1}`, rpc)}</td><td class="num">${amt(p.reserve0)}</td><td class="num">${amt(p.reserve1)}</td>
<td class="num">${amt(p.price)}</td><td class="num">${volumeCell(p.volume24h)}</td></tr>`);
  const prev = offset > 0 ? href('/explorer/dex', rpc, { offset: Math.max(0, offset - PAGE) }) : null;
  const next = offset + PAGE < total ? href('/explorer/dex', rpc, { offset: offset + PAGE }) : null;
  const noBds = items.find((p) => !p.volume24h.ok)?.volume24h;
  const body = html`<h1>DEX pairs <span class="muted">(${total})</span></h1>
<p class="muted">Reserves and prices are read from ${contractLink(PAIRS_CONTRACT, rpc)} state; price is token1 per one token0. Volume is the last 24 hours, token0 / token1.</p>
<div class="card">${table(['Id', 'Pair', 'Reserve 0', 'Reserve 1', 'Price', 'Volume 24 h'], rows, `No pairs in ${PAIRS_CONTRACT}.`)}${pager(prev, next)}
${noBds && !noBds.ok ? needsBds(noBds.reason) : ''}</div>`;
  return { title: 'DEX', section: 'dex', body };
}

/** `/explorer/dex/pair/<id>?interval=`: reserves, price, the candle chart, swaps and liquidity events. */
export async function pairPage(r: ReadContext, id: number, interval: CandleInterval): Promise<PageView> {
  const d = await pairDetail(r, id, interval, CHART_CANDLES);
  const rpc = r.peer;
  const p = d.pair;
  const self = `/explorer/dex/pair/${id}`;
  const intervals = html`<nav class="intervals" aria-label="Candle interval">${CANDLE_INTERVALS.map((i) => (i === interval
    ? html`<strong aria-current="true">${i}</strong>`
    : html`<a href="${href(self, rpc, { interval: i })}">${i}</a>`))}</nav>`;
  let chart: SafeHtml;
  if (!d.candles.ok) chart = needsBds(d.candles.reason);
  else if (d.candles.value.length === 0) chart = html`<p class="muted">No swaps yet, so no candles at ${interval}.</p>`;
  else {
    const candles = d.candles.value.map((c) => {
      const [open, high, low, close] = [c.open, c.high, c.low, c.close].map((v) => decimalText(v) ?? '0') as [string, string, string, string];
      const volume0 = decimalText(c.volume_token0) ?? '0';
      return {
        start: Math.floor(Date.parse(String(c.bucket_start)) / 1000),
        open, high, low, close, volume: volume0,
        tooltip: `${text(c.bucket_start)} — open ${open}, high ${high}, low ${low}, close ${close} ${p.token1} per ${p.token0}; volume ${volume0} ${p.token0}, ${text(c.trade_count)} trades`,
      };
    }).filter((c) => Number.isFinite(c.start));
    chart = html`${candleChart({
      title: `Price of ${p.token0} in ${p.token1}, ${interval} candles`,
      description: `The last ${CHART_CANDLES} ${interval} intervals up to ${text(d.candles.value[d.candles.value.length - 1]!.bucket_end)} (UTC): each candle shows open, high, low and close in ${p.token1} per ${p.token0}, with the ${p.token0} volume below; intervals without trades are empty.`,
      candles,
      intervalSeconds: INTERVAL_SECONDS[interval],
      slots: CHART_CANDLES,
    })}
<details><summary>Candle data</summary>${table(['Start (UTC)', 'Open', 'High', 'Low', 'Close', `Volume ${p.token0}`, `Volume ${p.token1}`, 'Trades'], d.candles.value.map((c) => html`<tr>
<td>${when(c.bucket_start)}</td><td>${amt(c.open)}</td><td>${amt(c.high)}</td><td>${amt(c.low)}</td><td>${amt(c.close)}</td>
<td>${amt(c.volume_token0)}</td><td>${amt(c.volume_token1)}</td><td>${text(c.trade_count)}</td></tr>`))}</details>`;
  }
  const swaps = d.swaps.ok ? swapTable(d.swaps.value.items, p.token0, p.token1, rpc) : needsBds(d.swaps.reason);
  const liquidity = d.liquidity.ok ? liquidityTable(d.liquidity.value.items, p.token0, p.token1, rpc) : needsBds(d.liquidity.reason);
  const body = html`<h1>${p.token0} / ${p.token1} <span class="muted">pair #${p.id}</span></h1>
<div class="card">${kv([
    ['Token 0', tokenLink(p.token0, p.token0, rpc)],
    ['Token 1', tokenLink(p.token1, p.token1, rpc)],
    ['Reserve 0', html`<span class="num">${amt(p.reserve0)}</span> ${p.token0} <span class="muted">(${stateLink(`${PAIRS_CONTRACT}.pairs:${p.id}:reserve0`, rpc, 'raw')})</span>`],
    ['Reserve 1', html`<span class="num">${amt(p.reserve1)}</span> ${p.token1} <span class="muted">(${stateLink(`${PAIRS_CONTRACT}.pairs:${p.id}:reserve1`, rpc, 'raw')})</span>`],
    ['Price', p.price ? html`<span class="num">${amt(p.price)}</span> ${p.token1} per ${p.token0}` : html`<span class="muted">no liquidity</span>`],
    ['Volume 24 h', volumeCell(d.volume24h)],
    ['LP token', p.lp_token ? tokenLink(p.lp_token, p.lp_token, rpc) : '—'],
    ['LP supply', html`<span class="num">${amt(p.total_supply)}</span>`],
  ])}</div>
<h2>Price chart</h2>
<div class="card">${intervals}${chart}</div>
<h2>Recent swaps</h2>
<div class="card">${swaps}</div>
<h2>Liquidity events</h2>
<div class="card">${liquidity}</div>`;
  return { title: `Pair ${p.token0}/${p.token1}`, section: 'dex', body };
}

function field(e: JsonObject, key: string): JsonObject[string] | undefined {
  const data = (e.data ?? null) as JsonObject | null;
  const indexed = (e.data_indexed ?? null) as JsonObject | null;
  return data?.[key] ?? indexed?.[key];
}

function isPositive(value: JsonObject[string] | undefined): boolean {
  const t = amount(value);
  return /^[0-9.]+$/.test(t) && /[1-9]/.test(t);
}

function swapTable(items: JsonObject[], token0: string, token1: string, rpc: string | null): SafeHtml {
  const rows = items.map((e) => {
    const zeroIn = isPositive(field(e, 'amount0In'));
    const sold = zeroIn ? amt(field(e, 'amount0In'), token0) : amt(field(e, 'amount1In'), token1);
    const bought = zeroIn ? amt(field(e, 'amount1Out'), token1) : amt(field(e, 'amount0Out'), token0);
    return html`<tr><td>${age(e.created_at)}</td><td>${blockLink(e.block_height, rpc)}</td><td class="mono">${sold}</td><td class="mono">${bought}</td>
<td>${addressLink(e.signer, rpc)}</td><td>${txLink(typeof e.tx_hash === 'string' ? e.tx_hash : null, rpc)}</td></tr>`;
  });
  return table(['Time', 'Block', 'In', 'Out', 'Trader', 'Tx'], rows, 'No swaps indexed for this pair.');
}

function liquidityTable(items: JsonObject[], token0: string, token1: string, rpc: string | null): SafeHtml {
  const rows = items.map((e) => html`<tr><td>${age(e.created_at)}</td><td>${e.event === 'Mint' ? 'Add' : 'Remove'}</td>
<td>${amt(field(e, 'amount0'), token0)}</td><td>${amt(field(e, 'amount1'), token1)}</td>
<td>${addressLink(e.signer, rpc)}</td><td>${blockLink(e.block_height, rpc)}</td><td>${txLink(typeof e.tx_hash === 'string' ? e.tx_hash : null, rpc)}</td></tr>`);
  return table(['Time', 'Action', 'Amount 0', 'Amount 1', 'Provider', 'Block', 'Tx'], rows, 'No liquidity added or removed since indexing began.');
}
