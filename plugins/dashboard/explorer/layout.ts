import { html, trusted, type SafeHtml } from './html.js';
import { href } from './format.js';
import { HIGHLIGHT_CSS } from './python-highlight.js';
import { EXPLORER_SCRIPT_PATH } from './live-route.js';

export type Section = 'blocks' | 'tokens' | 'dex' | 'contracts' | 'addresses' | 'events' | null;

export interface PageView {
  title: string;
  section: Section;
  body: SafeHtml;
}

/**
 * Small, dependency-free CSS: one column that fits a phone, tables that scroll sideways inside
 * their own box instead of widening the page, long hashes that wrap.
 */
const CSS = trusted(`
*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1f24;background:#f4f6f8}
a{color:#0b5cad;text-decoration:none}a:hover{text-decoration:underline}
main p a,main dd a,main li a,main h1 a,main h2 a,.sentence a,td.call a{text-decoration:underline;text-underline-offset:.3em;text-decoration-thickness:1px}
header{background:#12263a;color:#fff;padding:.6rem 1rem}
header .bar{max-width:1240px;margin:0 auto;display:flex;flex-wrap:wrap;gap:.5rem 1.2rem;align-items:center}
header .brand{font-weight:700;color:#fff;font-size:1.1rem}
nav{display:flex;flex-wrap:wrap;gap:.2rem .9rem}
header nav a{color:#cfe3f7;padding:.2rem 0}header nav a.on{color:#fff;border-bottom:2px solid #7cc4ff}
form.search{display:flex;flex:1 1 260px;gap:.4rem;min-width:0}
form.search input{flex:1;min-width:0;padding:.4rem .6rem;border-radius:6px;border:1px solid #8aa;font:inherit}
form.search button{padding:.4rem .8rem;border-radius:6px;border:0;background:#7cc4ff;color:#12263a;font:inherit;font-weight:600}
main{max-width:1240px;margin:0 auto;padding:1rem}
h1{font-size:1.35rem;margin:.2rem 0 1rem;overflow-wrap:anywhere}
h2{font-size:1.1rem;margin:1.4rem 0 .5rem}
.card{background:#fff;border:1px solid #dde3e8;border-radius:10px;padding:.8rem 1rem;margin:0 0 1rem}
.notice{background:#fff8e6;border-color:#f0c36d}
.error{background:#fdecec;border-color:#e79b9b}
dl.kv{display:grid;grid-template-columns:minmax(7rem,max-content) 1fr;gap:.25rem 1rem;margin:0}
dl.kv dt{color:#5a6570}dl.kv dd{margin:0;min-width:0;overflow-wrap:anywhere}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch}
table{border-collapse:collapse;width:100%;font-size:.92rem}
th,td{text-align:left;padding:.4rem .5rem;border-bottom:1px solid #e6ebef;vertical-align:top;white-space:nowrap}
td.wrap{white-space:normal;overflow-wrap:anywhere;min-width:12rem}
td.num{white-space:normal;overflow-wrap:anywhere;min-width:7rem}
th{color:#5a6570;font-weight:600;background:#f8fafb}
.mono,code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.88em}
pre{background:#0f1720;color:#e6edf3;padding:.8rem;border-radius:8px;overflow:auto;max-height:32rem;white-space:pre}
.ok{color:#137333;font-weight:600}.fail{color:#b3261e;font-weight:600}
.badge{display:inline-block;padding:0 .45rem;border-radius:999px;background:#e7eef6;font-size:.8rem}
.pager{display:flex;gap:1rem;justify-content:space-between;margin:.6rem 0}
.muted{color:#5a6570}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap;border:0}
figure.chart{margin:0;overflow-x:auto}figure.chart>svg{width:100%;min-width:560px;height:auto;display:block;font:11px system-ui,sans-serif}
.candle-chart{overflow:visible}.candle-chart .chart-row{display:flex;align-items:flex-start}.candle-chart svg{display:block;font:12px system-ui,sans-serif;overflow:visible}
.candle-chart .y-labels{flex:0 0 64px}.candle-chart .plot{flex:1 1 auto;min-width:0}.candle-chart figcaption{font-size:.85rem;margin-top:.3rem}
.candle-chart .up .body{fill:#34a853;stroke:#137333}.candle-chart .down .body{fill:#ea8079;stroke:#b3261e}.candle-chart .up .wick{stroke:#137333}.candle-chart .down .wick{stroke:#b3261e}
.candle-chart .up .volume{fill:#a8d5b5}.candle-chart .down .volume{fill:#f2b8b3}.candle-chart .muted-label{fill:#5a6570}
.chart .grid{stroke:#dde3e8;stroke-dasharray:4 3}
.chart .axis{stroke:#8a96a3}.chart text{fill:#3d4852}.chart .bar{fill:#7cb3e8}.chart .line{fill:none;stroke:#b3261e;stroke-width:2}
.chart .dot{fill:#b3261e}.chart .bar-label{fill:#1d5a94}.chart .line-label{fill:#b3261e}
.in{color:#137333;font-weight:600}.out{color:#b3261e;font-weight:600}
.intervals{display:flex;flex-wrap:wrap;gap:.3rem .6rem;margin:0 0 .6rem}.intervals a,.intervals strong{padding:.1rem .5rem;border-radius:6px;border:1px solid #c8d3dd}
.intervals strong{background:#12263a;color:#fff}
tr.fresh td{background:#eef7ee}
p.lead{font-size:1.08rem;background:#fff;border:1px solid #dde3e8;border-left:4px solid #0b5cad;border-radius:10px;padding:.7rem 1rem;margin:0 0 1rem;overflow-wrap:anywhere}
.fail-reason{color:#b3261e;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.88em}
td.what{white-space:normal;min-width:16rem;max-width:32rem;overflow-wrap:anywhere}
details{margin:.3rem 0}details>summary{cursor:pointer;font-weight:600;padding:.3rem 0;color:#0b5cad}
.amt{font-variant-numeric:tabular-nums}
.needs-bds{border-left:3px solid #f0c36d;padding-left:.6rem}
table.fields{width:auto;font-size:inherit;border-collapse:collapse}table.fields th,table.fields td{background:none;border:0;padding:.05rem .8rem .05rem 0;white-space:normal;overflow-wrap:anywhere}
table.fields th{font-weight:500}
@media (max-width:600px){body{font-size:14px}main{padding:.6rem}dl.kv{grid-template-columns:1fr}dl.kv dt{margin-top:.35rem}header .bar{gap:.4rem .8rem}}
${HIGHLIGHT_CSS}`);

const SECTIONS: Array<[Exclude<Section, null>, string, string]> = [
  ['blocks', 'Blocks', '/explorer'],
  ['tokens', 'Tokens', '/explorer/tokens'],
  ['dex', 'DEX', '/explorer/dex'],
  ['contracts', 'Contracts', '/explorer/contracts'],
  ['addresses', 'Addresses', '/explorer/addresses'],
  ['events', 'Events', '/explorer/events'],
];

/** The page shell. `rpc` (the inspected peer, if any) is carried on every link and the search. */
export function renderPage(view: PageView, rpc: string | null): string {
  const nav = SECTIONS.map(([id, label, path]) => html`<a href="${href(path, rpc)}" class="${view.section === id ? 'on' : ''}">${label}</a>`);
  const inspecting = rpc
    ? html`<div class="card notice">Inspecting peer <span class="mono">${rpc}</span> — <a href="${href('/explorer', null)}">back to the configured node</a></div>`
    : '';
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>${view.title} · chainhost explorer</title>
<link rel="icon" href="data:,">
<style>${CSS}</style><script src="${EXPLORER_SCRIPT_PATH}" defer></script></head>
<body><header><div class="bar"><a class="brand" href="${href('/explorer', rpc)}">chainhost explorer</a>
<nav aria-label="Sections">${nav}</nav>
<form class="search" method="get" action="/explorer/search" role="search">
${rpc ? html`<input type="hidden" name="rpc" value="${rpc}">` : ''}
<input name="q" placeholder="Block, tx hash, address, contract or state key" aria-label="Search" autocomplete="off">
<button type="submit">Search</button></form></div></header>
<main>${inspecting}${view.body}</main></body></html>`.text;
}
