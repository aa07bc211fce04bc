/**
 * Descriptions for configuration keys whose schema source has no doc comment, by full dotted
 * path. A doc comment in the source wins; the reference test fails on a key described in
 * neither place and on a note whose key no longer exists, so this list cannot rot. Prefer adding
 * the comment next to the key in the schema; this list covers files the reference does not own.
 */
export const KEY_NOTES: Readonly<Record<string, string>> = {
  // ---- host (core/config/config-schema.ts) ----
  '$schema': 'Path or URL of the JSON Schema (`chainrc.schema.json`) for editors; the host ignores it.',
  'home': 'Data directory of every plugin: the devnet\'s chain data, the BDS PGlite database and spool. Relative to the config file\'s folder (the working directory without one).',
  'chainId': 'The chain id: the devnet\'s genesis uses it, signed transactions carry it, and tools compare it with the node\'s network id (read tools warn on a mismatch, submitting tools refuse with 409).',
  'node': 'The node every plugin talks to when the devnet is not loaded in-process.',
  'node.url': 'CometBFT RPC URL of that node (http or https); unused while the devnet plugin runs in the same host.',
  'includeRaw': 'Add the node\'s raw payloads to tool results as `raw`.',
  'publicQueryEnabled': 'The operator half of the public-query rule: a query service (dashboard, GraphQL, `/metrics`) binds beyond loopback only when this is true and its own `publicQuery` option is too.',
  'tools': 'The tool surfaces and the tool-call policy.',
  'tools.stdio': 'Serve MCP on stdin/stdout (chain-host; chain-mcp always does).',
  'tools.http': 'The HTTP tool server: `GET /tools`, `POST /tools/{name}`, MCP over Streamable HTTP at `/mcp`, `GET /health`. null serves none; chain-mcp-http always serves it.',
  'tools.http.host': 'Bind address; a raw IPv6 address such as `::1` is written without brackets. Anything but loopback needs a token.',
  'tools.http.port': 'Port; 0 picks a free one.',
  'tools.http.publishHost': 'The address a container\'s port is published on: also accepted in the `Host` header (DNS-rebinding protection), and the address the start banner shows for a wildcard bind.',
  'tools.http.token': 'Bearer token (at least 16 characters). When set it is required on every request; the server refuses to start without one when unsafe tools are on or it binds beyond loopback.',
  'tools.http.corsOrigins': 'Browser origins allowed, exactly as browsers send `Origin`; any other `Origin` gets 403, and `*` is refused at start.',
  'tools.http.bodyLimitBytes': 'Largest request body; beyond it 413.',
  'tools.unsafe': 'Expose the unsafe tools (creating and importing wallets, signing, sending, encrypting and decrypting, DEX submission); otherwise they are hidden and refused with 403.',
  'tools.timeoutMs': 'Per-call deadline of a tool that sets none of its own; beyond it 504.',
  'metrics': 'The host\'s Prometheus endpoint `GET /metrics` on a server of its own; null serves none, `{}` serves `127.0.0.1:9109`.',
  'metrics.host': 'Bind address; beyond loopback only with `publicQuery` and `CHAIN_PUBLIC_QUERY_ENABLED=1`.',

  // ---- plugins.devnet ----
  'plugins.devnet.host': 'Bind address of the node RPC and metrics; beyond loopback only with `publicRpc`.',
  'plugins.devnet.port': 'CometBFT JSON-RPC and WebSocket (`/websocket`) port; 0 picks a free one.',
  'plugins.devnet.metricsPort': 'Port of the node\'s Prometheus `/metrics`; null serves none; 0 picks a free one.',
  'plugins.devnet.accounts': 'Dev accounts funded at genesis (1,000,000 `currency` each), derived from the mnemonic.',
  'plugins.devnet.mnemonic': 'Mnemonic of the dev accounts; default the public test mnemonic `test test test test test test test test test test test junk`.',
  'plugins.devnet.reset': 'Wipe the chain data and start again from genesis.',

  // ---- plugins.dashboard ----
  'plugins.dashboard.host': 'Bind address; beyond loopback only with `publicQuery` and `CHAIN_PUBLIC_QUERY_ENABLED=1`.',
  'plugins.dashboard.port': 'Port; 0 picks a free one.',
  'plugins.dashboard.peerInspection.enabled': 'Allow `?rpc=<url>` at all.',
  'plugins.dashboard.limits': 'Per-client token buckets, the in-flight cap and the page-size cap.',
  'plugins.dashboard.limits.api.ratePerSecond': 'Refill rate of the `api` bucket (requests per second per client).',
  'plugins.dashboard.limits.api.burst': 'Capacity of the `api` bucket (requests at once).',
  'plugins.dashboard.limits.expensive.ratePerSecond': 'Refill rate of the `expensive` bucket (requests per second per client).',
  'plugins.dashboard.limits.expensive.burst': 'Capacity of the `expensive` bucket.',
  'plugins.dashboard.limits.websocket.ratePerSecond': 'Refill rate of the `websocket` bucket (upgrades per second per client).',
  'plugins.dashboard.limits.websocket.burst': 'Capacity of the `websocket` bucket.',
  'plugins.dashboard.simulate.enabled': 'Serve the dry-run route at all; off answers 403.',
  'plugins.dashboard.simulate.windowMs': 'Length of the per-client dry-run window (ms).',
  'plugins.dashboard.websocket': 'Caps of the `/ws` feed.',
  'plugins.dashboard.websocket.maxClients': 'WebSocket clients at once over all addresses.',
  'plugins.dashboard.websocket.maxClientsPerIp': 'WebSocket clients at once from one client address.',
  'plugins.dashboard.websocket.maxStateSubscriptions': 'State-key subscriptions per client.',
  'plugins.dashboard.websocket.maxEventSubscriptions': 'Event subscriptions per client.',
  'plugins.dashboard.websocket.maxMessageBytes': 'Largest message a client may send.',
  'plugins.dashboard.websocket.pingIntervalMs': 'Ping interval; a client that has not answered the previous ping is disconnected.',

  // ---- plugins.wallet ----
  'plugins.wallet.chiFloor': 'The least chi added over the dry run\'s estimate (see `chiMargin`).',
  'plugins.wallet.confirm.ask': 'Which sends need a person\'s yes: `"never"`, `"always"`, or `{"above": {"<token contract>": "<decimal>"}}` (more than that amount of a listed token leaves the sender, the chi fee counted in `currency`).',
  'plugins.wallet.confirm.ask.above': 'Token contract → the amount (exact decimal string) above which a send needs confirmation; tokens not listed never do.',
  'plugins.wallet.confirm.fallback': 'When confirmation is needed but nobody can be asked (an MCP client without elicitation, the HTTP tool API): `"refuse"` the send (`confirmation_unavailable`), or `"allow"` it within the policy.',
  'plugins.wallet.confirm.timeoutSeconds': 'How long to wait for the person\'s answer; no answer refuses (`confirmation_timeout`). The tool\'s own timeout stands still meanwhile.',

  // ---- plugins.simulate ----
  'plugins.simulate.maxConcurrency': 'Dry runs sent to the node at once.',
  'plugins.simulate.maxQueue': 'Dry runs waiting for a slot; more are refused with 503.',
  'plugins.simulate.timeoutMs': 'Deadline of one dry run, waiting included (ms); beyond it 504.',
  'plugins.simulate.burst': 'Capacity of the rate cap\'s bucket; default twice `ratePerSecond`.',

  // ---- plugins.dex ----
  'plugins.dex.contracts.pairs': 'The pair registry contract.',
  'plugins.dex.contracts.router': 'The router contract swaps and liquidity changes are sent to.',
  'plugins.dex.contracts.helper': 'The helper contract.',

  // ---- plugins.bds ----
  'plugins.bds.schema': 'PostgreSQL schema of the BDS tables; the one-writer lock is per schema.',
  'plugins.bds.spoolDir': 'Folder of fetched blocks not yet written (replayed at start), relative to `home`; default `<home>/bds-spool`.',
  'plugins.bds.queueMaxSize': 'Fetched blocks queued in memory for the writer; while the database is up the fetcher reads no further ahead.',
  'plugins.bds.catchupEnabled': 'Poll the node for new heights; off waits for the new-block subscription alone.',
  'plugins.bds.catchupPollMs': 'How long the fetcher and the writer wait when there is nothing to do (ms).',
  'plugins.bds.retryDelayMs': 'Pause after a failed fetch or write before trying again (ms); retries never stop.',
  'plugins.bds.batchMaxBlocks': 'Most blocks written in one database transaction (catch-up).',
  'plugins.bds.batchMaxTxs': 'Most transactions in one write batch; a block with more is written alone.',
  'plugins.bds.fetchConcurrency': 'Blocks fetched from the node at once.',
  'plugins.bds.spoolMaxEntries': 'Most blocks spooled while the database is unavailable.',
  'plugins.bds.spoolWarnEntries': '`/bds_status` raises the `spool_entries_high` warning at this many spooled blocks.',
  'plugins.bds.spoolWarnBytes': '`/bds_status` raises the `spool_bytes_high` warning at this many spooled bytes.',
  'plugins.bds.diskFreeWarnBytes': '`/bds_status` raises the `disk_free_low` warning when the spool\'s filesystem has this little free space.',
  'plugins.bds.poolMinSize': 'Fewest pooled connections to the PostgreSQL server (unused on PGlite).',
  'plugins.bds.poolMaxSize': 'Most pooled connections to the PostgreSQL server (unused on PGlite).',
  'plugins.bds.statementTimeoutMs': 'PostgreSQL `statement_timeout` of every session (ms); 0 = none.',
  'plugins.bds.acquireTimeoutMs': 'How long a query waits for a pooled connection (ms); 0 = forever.',
  'plugins.bds.applicationName': 'PostgreSQL `application_name` of the sessions.',

  // ---- plugins.graphql ----
  'plugins.graphql.host': 'Bind address; beyond loopback only with `publicQuery` and `CHAIN_PUBLIC_QUERY_ENABLED=1`.',
  'plugins.graphql.port': 'Port; 0 picks a free one.',
  'plugins.graphql.path': 'URL path of the endpoint.',
  'plugins.graphql.readDatabaseUrl': 'A read-only copy of the BDS database (CHAIN_BDS_READ_DATABASE_URL) GraphQL reads instead of `databaseUrl` when it opens the database itself.',
  'plugins.graphql.pgliteDir': 'PGlite directory when opened here (see `databaseUrl`); relative to `home`.',
  'plugins.graphql.poolMaxSize': 'Most pooled connections when it opens a PostgreSQL server itself.',
  'plugins.graphql.bodyLimitBytes': 'Largest request body; beyond it 413.',
};
