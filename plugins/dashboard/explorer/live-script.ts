/**
 * The home page's live update, served from our own origin (`/explorer/assets/live.js`) so the
 * CSP allows it with `script-src 'self'` and no inline script. Without JavaScript the page is
 * complete as rendered; with it, each `new_block` from `/ws` is prepended to the latest blocks
 * and its transactions to the latest transactions. Chain text is only ever set as textContent.
 */
export const LIVE_SCRIPT = `(function () {
  'use strict';
  var blocks = document.querySelector('#latest-blocks tbody');
  var txs = document.querySelector('#latest-txs tbody');
  var status = document.getElementById('live-status');
  if (!blocks || !txs || !status || !window.WebSocket) return;
  var MAX = 20;
  var delay = 1000;
  function short(text, keep) {
    text = String(text == null ? '' : text);
    return text.length > keep * 2 + 1 ? text.slice(0, keep) + '\\u2026' + text.slice(-6) : text;
  }
  function td(tr, text, link, mono, title) {
    var cell = document.createElement('td');
    var target = cell;
    if (link) { target = document.createElement('a'); target.href = link; cell.appendChild(target); }
    target.textContent = text == null || text === '' ? '\\u2014' : String(text);
    if (mono) target.className = 'mono';
    if (title) target.title = String(title);
    tr.appendChild(cell);
  }
  function utc(iso) {
    var m = /^(\\d{4}-\\d{2}-\\d{2})T(\\d{2}:\\d{2}:\\d{2})/.exec(String(iso || ''));
    return (m ? m[1] + ' ' + m[2] + ' UTC ' : '') + '(just now)';
  }
  function prepend(body, tr) {
    var empty = body.querySelector('tr.empty');
    if (empty) empty.parentNode.removeChild(empty);
    body.insertBefore(tr, body.firstChild);
    tr.className = 'fresh';
    while (body.rows.length > MAX) body.deleteRow(body.rows.length - 1);
  }
  function onBlock(b) {
    if (blocks.querySelector('tr[data-height="' + Number(b.height) + '"]')) return;
    var row = document.createElement('tr');
    row.setAttribute('data-height', String(Number(b.height)));
    td(row, b.height, '/explorer/block/' + encodeURIComponent(b.height));
    td(row, short(b.hash, 10), null, true, b.hash);
    td(row, b.num_txs);
    td(row, short(b.proposer, 8), null, true, b.proposer);
    td(row, utc(b.time), null, false, b.time);
    prepend(blocks, row);
    for (var i = (b.txs || []).length - 1; i >= 0; i--) {
      var t = b.txs[i];
      if (txs.querySelector('tr[data-tx="' + String(t.tx_hash).replace(/[^0-9A-Fa-f]/g, '') + '"]')) continue;
      var tr = document.createElement('tr');
      tr.setAttribute('data-tx', String(t.tx_hash).replace(/[^0-9A-Fa-f]/g, ''));
      td(tr, short(t.tx_hash, 10), '/explorer/tx/' + encodeURIComponent(t.tx_hash), true, t.tx_hash);
      td(tr, b.height, '/explorer/block/' + encodeURIComponent(b.height));
      td(tr, t.contract, typeof t.contract === 'string' ? '/explorer/contract/' + encodeURIComponent(t.contract) : null);
      td(tr, t['function']);
      td(tr, short(t.sender, 10), typeof t.sender === 'string' ? '/explorer/address/' + encodeURIComponent(t.sender) : null, true, t.sender);
      td(tr, utc(b.time), null, false, b.time);
      td(tr, null);
      prepend(txs, tr);
    }
    status.textContent = 'Live: block ' + b.height + ' arrived just now.';
  }
  function connect() {
    var ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws');
    ws.onopen = function () { delay = 1000; status.textContent = 'Live: new blocks and transactions appear here as they are committed.'; };
    ws.onmessage = function (m) {
      var msg;
      try { msg = JSON.parse(m.data); } catch (e) { return; }
      if (msg && msg.type === 'new_block') onBlock(msg);
    };
    ws.onclose = function () {
      status.textContent = 'Live updates paused; reconnecting\\u2026';
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);
    };
  }
  connect();
})();
`;
