/**
 * The explorer's one script, served from our own origin (`/explorer/assets/explorer.js`) so the
 * CSP allows it with `script-src 'self'` and no inline script. Every page is complete without
 * it; with it:
 * - "N s ago" ages tick (each `[data-ago]` holds its instant);
 * - copying an amount copies its exact chain value (`data-exact`), not the rounded text shown;
 * - on the home page of the configured node, each `new_block` from `/ws` fetches
 *   `/explorer/live?after=<height>` — the latest-block card, the chart and the new block and
 *   transaction rows rendered by the server (the same code as the page, so sentences, statuses
 *   and amounts are the page's own) — and swaps them in. Fetches never overlap: blocks that
 *   arrive meanwhile are picked up by one follow-up fetch.
 */
export const EXPLORER_SCRIPT = `(function () {
  'use strict';
  function ago(ms) {
    var s = Math.max(0, Math.round(ms / 1000));
    if (s < 60) return s + ' s ago';
    if (s < 3600) return Math.floor(s / 60) + ' min ago';
    if (s < 86400) return Math.floor(s / 3600) + ' h ago';
    return Math.floor(s / 86400) + ' d ago';
  }
  function tick() {
    var now = Date.now();
    var els = document.querySelectorAll('[data-ago]');
    for (var i = 0; i < els.length; i++) {
      var t = Date.parse(els[i].getAttribute('data-ago'));
      if (!isNaN(t)) els[i].textContent = els[i].hasAttribute('data-bare') ? ago(now - t) : '(' + ago(now - t) + ')';
    }
  }
  tick();
  setInterval(tick, 1000);

  document.addEventListener('copy', function (e) {
    var sel = window.getSelection();
    if (!sel || sel.rangeCount === 0 || !e.clipboardData) return;
    var start = sel.anchorNode && (sel.anchorNode.nodeType === 1 ? sel.anchorNode : sel.anchorNode.parentElement);
    var inside = start && start.closest ? start.closest('[data-exact]') : null;
    if (inside && inside.contains(sel.focusNode)) {
      e.clipboardData.setData('text/plain', inside.getAttribute('data-exact'));
      e.preventDefault();
      return;
    }
    var frag = sel.getRangeAt(0).cloneContents();
    var amounts = frag.querySelectorAll('[data-exact]');
    if (!amounts.length) return;
    for (var i = 0; i < amounts.length; i++) amounts[i].textContent = amounts[i].getAttribute('data-exact');
    var box = document.createElement('div');
    box.appendChild(frag);
    e.clipboardData.setData('text/plain', box.textContent);
    e.preventDefault();
  });

  var status = document.getElementById('live-status');
  var blocks = document.querySelector('#latest-blocks tbody');
  var txs = document.querySelector('#latest-txs tbody');
  var card = document.getElementById('latest-card');
  var activity = document.getElementById('activity');
  if (!status || !blocks || !txs || !card || !activity || !window.WebSocket || !window.fetch) return;
  var MAX = 20;
  var after = Number(status.getAttribute('data-after')) || 0;
  var busy = false;
  var again = false;
  var delay = 1000;

  function keyOf(tr) { return tr.getAttribute('data-tx') || tr.getAttribute('data-height') || ''; }
  function prepend(body, list, attr) {
    for (var i = list.length - 1; i >= 0; i--) {
      var holder = document.createElement('tbody');
      holder.innerHTML = list[i];
      var tr = holder.querySelector('tr');
      if (!tr) continue;
      var key = keyOf(tr).replace(/[^0-9A-Za-z]/g, '');
      if (body.querySelector('tr[' + attr + '="' + key + '"]')) continue;
      var empty = body.querySelector('tr.empty');
      if (empty) empty.parentNode.removeChild(empty);
      tr.className = 'fresh';
      body.insertBefore(tr, body.firstChild);
    }
    while (body.rows.length > MAX) body.deleteRow(body.rows.length - 1);
  }
  function apply(d) {
    card.innerHTML = d.card;
    activity.innerHTML = d.chart;
    prepend(blocks, d.blocks, 'data-height');
    prepend(txs, d.txs, 'data-tx');
    if (d.height > after) after = d.height;
    status.textContent = 'Live: block ' + d.height + ' arrived.';
    tick();
  }
  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    fetch('/explorer/live?after=' + after, { headers: { accept: 'application/json' } })
      .then(function (res) { return res.ok ? res.json() : null; })
      .then(function (d) { if (d) apply(d); }, function () {})
      .then(function () {
        busy = false;
        if (again) { again = false; refresh(); }
      });
  }
  function connect() {
    var ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws');
    ws.onopen = function () { delay = 1000; status.textContent = 'Live: new blocks and transactions appear here as they are committed.'; refresh(); };
    ws.onmessage = function (m) {
      var msg;
      try { msg = JSON.parse(m.data); } catch (e) { return; }
      if (msg && msg.type === 'new_block' && Number(msg.height) > after) refresh();
    };
    ws.onclose = function () {
      status.textContent = 'Live updates paused; reconnecting' + String.fromCharCode(8230);
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);
    };
  }
  connect();
})();
`;
