import type { CompatChain } from './compat-chain.js';

/**
 * The queries both servers answer in the differential test: what explorers and wallets send
 * (lookups, every paging form, conditions, filters incl. relation filters, aggregates, nodeId,
 * nested relations) and what they get wrong (error cases). A query with `from` runs after the
 * named query on the same server and takes its variables from that server's answer (cursors
 * are each server's own).
 */
export interface CorpusQuery {
  name: string;
  query: string;
  variables?: Record<string, unknown>;
  from?: string;
  variablesFrom?: (previous: any) => Record<string, unknown>;
  /** The raw request body instead of `{query, variables}` (malformed requests). */
  rawBody?: string;
  /** Extra request headers (e.g. `accept`, `content-type`). */
  headers?: Record<string, string>;
  /** A GET of `<graphql url><get>` instead of a POST (`?query=…`, or `/../graphiql`). */
  get?: string;
}

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64');

const BLOCK = 'nodeId height blockHash blockTime blockTimeIso txCount appHash createdAt';
const TX = 'nodeId hash blockHeight blockHash blockTime txIndex sender nonce contract function success statusCode chiUsed result payload envelope createdAt';
const EVENT = 'nodeId id blockHeight txHash txIndex eventIndex contract event signer caller dataIndexed data createdAt';
const PAGE = 'pageInfo { hasNextPage hasPreviousPage startCursor endCursor }';

export function queryCorpus(c: CompatChain): CorpusQuery[] {
  const [alice, bob, carol, dave] = c.accounts as [string, string, string, string];
  const q: CorpusQuery[] = [
    // Lookups
    { name: 'lookup/blockByHeight', query: `{ blockByHeight(height: "5") { ${BLOCK} } }` },
    { name: 'lookup/blockByHeight-variable', query: 'query ($h: BigInt!) { blockByHeight(height: $h) { height blockHash txCount } }', variables: { h: String(c.batch.height) } },
    { name: 'lookup/blockByHeight-genesis', query: `{ blockByHeight(height: "0") { ${BLOCK} } }` },
    { name: 'lookup/blockByHeight-missing', query: '{ blockByHeight(height: "999999") { height } }' },
    { name: 'lookup/blockByBlockHash', query: `{ blockByBlockHash(blockHash: "${c.batch.blockHash}") { height txCount } }` },
    { name: 'lookup/transactionByHash', query: `{ transactionByHash(hash: "${c.transfers[0]}") { ${TX} } }` },
    { name: 'lookup/transactionByHash-variable', query: 'query ($hash: String!) { transactionByHash(hash: $hash) { hash blockHeight sender contract function success chiUsed } }', variables: { hash: c.swaps[0] } },
    { name: 'lookup/transactionByHash-failed', query: `{ transactionByHash(hash: "${c.failed}") { ${TX} } }` },
    { name: 'lookup/transactionByHash-genesis', query: `{ transactionByHash(hash: "GENESIS") { hash blockHeight sender contract function success result } }` },
    { name: 'lookup/transactionByHash-deploy', query: `{ transactionByHash(hash: "${c.deploy}") { hash contract function success chiUsed statusCode } }` },
    { name: 'lookup/transactionByBlockHeightAndTxIndex', query: `{ transactionByBlockHeightAndTxIndex(blockHeight: "${c.batch.height}", txIndex: 1) { hash txIndex sender } }` },
    { name: 'lookup/addressByAddress', query: `{ addressByAddress(address: "${alice}") { nodeId address txCount firstBlockHeight firstSeen lastBlockHeight lastTxIndex lastSeen lastTxHash lastContract lastFunction updatedAt } }` },
    { name: 'lookup/stateByKey-patched', query: `{ stateByKey(key: "currency.balances:${dave}") { nodeId key value valueNumeric lastChangeId lastTxHash lastBlockHeight updatedAt } }` },
    { name: 'lookup/stateByKey-token', query: `{ stateByKey(key: "${c.token}.balances:${carol}") { key value valueNumeric lastBlockHeight } }` },
    { name: 'lookup/stateChangeByChangeId', query: '{ stateChangeByChangeId(changeId: "1") { nodeId changeId blockHeight blockHash blockTime txHash txIndex writeIndex key newValue newValueNumeric previousChangeId previousTxHash originType createdAt } }' },
    { name: 'lookup/eventById', query: `{ eventById(id: "1") { ${EVENT} } }` },
    { name: 'lookup/eventByTxHashAndEventIndex', query: `{ eventByTxHashAndEventIndex(txHash: "${c.swaps[0]}", eventIndex: 0) { id contract event data dataIndexed } }` },
    { name: 'lookup/contractByName', query: `{ contractByName(name: "${c.token}") { nodeId name lastTxHash submittedAtBlock submittedAt xsc001 source } }` },
    { name: 'lookup/bdsMetaByKey', query: '{ bdsMetaByKey(key: "schema_version") { nodeId key value updatedAt } }' },
    { name: 'lookup/statePatchRecordByHash', query: `{ statePatchRecordByHash(hash: "${c.patchHash}") { nodeId hash blockHeight blockHash blockTime patchCount patches createdAt blockByBlockHeight { height } } }` },
    { name: 'lookup/rewardById', query: '{ rewardById(id: "1") { nodeId id blockHeight txHash txIndex rewardIndex type recipientKey sourceContract value createdAt } }' },

    // A database function PostGraphile exposes as a root field (BDS's numeric decoder)
    { name: 'function/bdsNumeric', query: '{ fixed: bdsNumeric(v: "{\\"__fixed__\\": \\"12.50\\"}") text: bdsNumeric(v: "\\"7\\"") none: bdsNumeric(v: "true") }' },

    // nodeId and the Relay node interface
    { name: 'node/block', query: `{ node(nodeId: "${b64(['blocks', '3'])}") { __typename nodeId ... on Block { height txCount } } }` },
    { name: 'node/transaction', query: `{ node(nodeId: "${b64(['transactions', c.transfers[1]])}") { __typename nodeId ... on Transaction { hash sender } } }` },
    { name: 'node/missing', query: `{ node(nodeId: "${b64(['blocks', '999999'])}") { nodeId } }` },
    { name: 'node/block-by-nodeId-field', query: `{ block(nodeId: "${b64(['blocks', '2'])}") { height blockHash } }` },
    { name: 'node/query-root', query: '{ nodeId query { nodeId blockByHeight(height: "1") { height } } }' },
    { name: 'node/state-patch-record', query: `{ statePatchRecord(nodeId: "${b64(['state_patches', c.patchHash])}") { hash patchCount } node(nodeId: "${b64(['state_patches', c.patchHash])}") { __typename nodeId } }` },
    { name: 'node/bad-nodeId', query: '{ node(nodeId: "not-a-node-id") { nodeId } }' },

    // Connections and paging
    { name: 'conn/allBlocks-no-args', query: '{ allBlocks { totalCount nodes { height txCount } } }' },
    { name: 'conn/allBlocks-first-desc', query: `{ allBlocks(first: 5, orderBy: HEIGHT_DESC) { totalCount nodes { height } edges { cursor node { height } } ${PAGE} } }` },
    { name: 'conn/allBlocks-after', from: 'conn/allBlocks-first-desc', variablesFrom: (p) => ({ after: p.data.allBlocks.pageInfo.endCursor }), query: `query ($after: Cursor) { allBlocks(first: 5, orderBy: HEIGHT_DESC, after: $after) { nodes { height } ${PAGE} } }` },
    { name: 'conn/allBlocks-before-last', from: 'conn/allBlocks-first-desc', variablesFrom: (p) => ({ before: p.data.allBlocks.pageInfo.endCursor }), query: `query ($before: Cursor) { allBlocks(last: 2, orderBy: HEIGHT_DESC, before: $before) { nodes { height } ${PAGE} } }` },
    { name: 'conn/allBlocks-last', query: `{ allBlocks(last: 3) { nodes { height } edges { cursor } ${PAGE} } }` },
    { name: 'conn/allBlocks-offset', query: `{ allBlocks(first: 3, offset: 4, orderBy: HEIGHT_ASC) { nodes { height } ${PAGE} } }` },
    { name: 'conn/allBlocks-first-and-last', query: `{ allBlocks(first: 10, last: 3, orderBy: HEIGHT_ASC) { nodes { height } ${PAGE} } }` },
    { name: 'conn/allBlocks-first-zero', query: `{ allBlocks(first: 0) { totalCount nodes { height } ${PAGE} } }` },
    { name: 'conn/allTransactions-latest', query: '{ allTransactions(first: 20, orderBy: BLOCK_HEIGHT_DESC) { nodes { hash blockHeight txIndex contract function success } } }' },
    { name: 'conn/allTransactions-latest-cursors', query: `{ allTransactions(first: 4, orderBy: BLOCK_HEIGHT_DESC) { edges { cursor node { hash } } ${PAGE} } }` },
    { name: 'conn/allTransactions-latest-page2', from: 'conn/allTransactions-latest-cursors', variablesFrom: (p) => ({ after: p.data.allTransactions.pageInfo.endCursor }), query: 'query ($after: Cursor) { allTransactions(first: 4, orderBy: BLOCK_HEIGHT_DESC, after: $after) { nodes { hash blockHeight txIndex } } }' },
    // Keyset pages on multi-column orders (issue 31: row-value cursor conditions): same direction, mixed, nullable
    { name: 'conn/keyset-two-desc', query: `{ allTransactions(first: 5, orderBy: [BLOCK_HEIGHT_DESC, TX_INDEX_DESC]) { nodes { hash } ${PAGE} } }` },
    { name: 'conn/keyset-two-desc-page2', from: 'conn/keyset-two-desc', variablesFrom: (p) => ({ after: p.data.allTransactions.pageInfo.endCursor }), query: `query ($after: Cursor) { allTransactions(first: 5, after: $after, orderBy: [BLOCK_HEIGHT_DESC, TX_INDEX_DESC]) { nodes { hash blockHeight txIndex } ${PAGE} } }` },
    { name: 'conn/keyset-two-desc-before', from: 'conn/keyset-two-desc-page2', variablesFrom: (p) => ({ before: p.data.allTransactions.pageInfo.endCursor }), query: `query ($before: Cursor) { allTransactions(last: 4, before: $before, orderBy: [BLOCK_HEIGHT_DESC, TX_INDEX_DESC]) { nodes { hash } ${PAGE} } }` },
    { name: 'conn/keyset-mixed', query: `{ allTransactions(first: 6, orderBy: [CONTRACT_ASC, BLOCK_HEIGHT_DESC]) { nodes { hash } ${PAGE} } }` },
    { name: 'conn/keyset-mixed-page2', from: 'conn/keyset-mixed', variablesFrom: (p) => ({ after: p.data.allTransactions.pageInfo.endCursor }), query: `query ($after: Cursor) { allTransactions(first: 6, after: $after, orderBy: [CONTRACT_ASC, BLOCK_HEIGHT_DESC]) { nodes { hash contract blockHeight } ${PAGE} } }` },
    { name: 'conn/keyset-nullable', query: `{ allStateChanges(first: 4, orderBy: [TX_HASH_DESC, WRITE_INDEX_ASC]) { nodes { changeId } ${PAGE} } }` },
    { name: 'conn/keyset-nullable-page2', from: 'conn/keyset-nullable', variablesFrom: (p) => ({ after: p.data.allStateChanges.pageInfo.endCursor }), query: `query ($after: Cursor) { allStateChanges(first: 4, after: $after, orderBy: [TX_HASH_DESC, WRITE_INDEX_ASC]) { nodes { changeId txHash writeIndex } ${PAGE} } }` },
    { name: 'conn/allTransactions-multi-order', query: '{ allTransactions(orderBy: [CONTRACT_ASC, BLOCK_HEIGHT_DESC]) { nodes { contract blockHeight hash } } }' },
    { name: 'conn/allTransactions-natural', query: '{ allTransactions(first: 3, orderBy: NATURAL) { nodes { hash } } }' },
    { name: 'conn/allTransactions-primary-key-desc', query: '{ allTransactions(first: 4, orderBy: PRIMARY_KEY_DESC) { nodes { hash } } }' },
    { name: 'conn/allEvents-all', query: `{ allEvents(orderBy: ID_ASC) { totalCount nodes { ${EVENT} } } }` },
    { name: 'conn/allStateChanges-desc', query: '{ allStateChanges(first: 15, orderBy: CHANGE_ID_DESC) { nodes { changeId key newValue newValueNumeric originType txHash } } }' },
    { name: 'conn/allStates', query: '{ allStates(orderBy: KEY_ASC, first: 40, offset: 10) { totalCount nodes { key value valueNumeric lastBlockHeight } } }' },
    { name: 'conn/allAddresses', query: '{ allAddresses(orderBy: TX_COUNT_DESC) { nodes { address txCount lastFunction } } }' },
    { name: 'conn/allContracts', query: '{ allContracts(orderBy: SUBMITTED_AT_BLOCK_DESC) { totalCount nodes { name submittedAtBlock xsc001 lastTxHash } } }' },
    { name: 'conn/allRewards', query: '{ allRewards(orderBy: ID_ASC) { totalCount nodes { id type recipientKey sourceContract value txHash } } }' },
    { name: 'conn/allStatePatchRecords', query: '{ allStatePatchRecords { totalCount nodes { nodeId hash blockHeight blockHash blockTime patchCount patches createdAt } } }' },
    { name: 'conn/allBdsMetas', query: '{ allBdsMetas(orderBy: KEY_ASC) { nodes { key } } }' },
    { name: 'conn/allShielded', query: '{ allShieldedOutputs { totalCount nodes { id } } allShieldedOutputTags { totalCount nodes { id } } }' },

    // Conditions
    { name: 'condition/sender', query: `{ allTransactions(condition: {sender: "${alice}"}, orderBy: NONCE_ASC) { totalCount nodes { hash nonce function } } }` },
    { name: 'condition/failed', query: '{ allTransactions(condition: {success: false}) { nodes { hash result statusCode } } }' },
    { name: 'condition/swap-events', query: '{ allEvents(condition: {contract: "con_pairs", event: "Swap"}, orderBy: ID_ASC, first: 100) { nodes { id txHash blockHeight data dataIndexed } } }' },
    { name: 'condition/transfer-events-variable', query: 'query ($c: String!) { allEvents(condition: {contract: $c, event: "Transfer"}) { totalCount nodes { data dataIndexed } } }', variables: { c: c.token } },
    { name: 'condition/json-value', query: '{ allStates(condition: {value: "{\\"__fixed__\\": \\"4242.5\\"}"}) { nodes { key valueNumeric } } }' },
    { name: 'condition/state-history', query: `{ allStateChanges(condition: {key: "currency.balances:${dave}"}, orderBy: CHANGE_ID_DESC, first: 50) { nodes { newValue newValueNumeric txHash blockHeight originType } } }` },
    { name: 'condition/xsc001-contracts', query: '{ allContracts(condition: {xsc001: true}, orderBy: SUBMITTED_AT_BLOCK_DESC) { nodes { name submittedAt } } }' },
    { name: 'condition/null', query: '{ allStateChanges(condition: {txHash: null}, first: 5) { totalCount nodes { changeId originType } } }' },

    // Filters
    { name: 'filter/range', query: '{ allBlocks(filter: {height: {greaterThan: "3", lessThanOrEqualTo: "8"}}) { nodes { height } } }' },
    { name: 'filter/in', query: '{ allTransactions(filter: {function: {in: ["approve", "swapExactTokenForToken"]}}, orderBy: BLOCK_HEIGHT_ASC) { nodes { hash function } } }' },
    { name: 'filter/startsWith-insensitive', query: '{ allEvents(filter: {event: {startsWithInsensitive: "sw"}}) { totalCount } allTransactions(filter: {contract: {startsWith: "con_"}}) { totalCount } }' },
    { name: 'filter/and-or-not', query: `{ allTransactions(filter: {or: [{sender: {equalTo: "${bob}"}}, {and: [{contract: {equalTo: "con_dex"}}, {not: {sender: {equalTo: "${dave}"}}}]}]}, orderBy: HASH_ASC) { nodes { hash sender contract } } }` },
    { name: 'filter/isNull-distinctFrom', query: '{ allStateChanges(filter: {previousChangeId: {isNull: true}, originType: {distinctFrom: "genesis"}}, first: 10) { totalCount nodes { changeId key } } }' },
    { name: 'filter/like-notEqualTo', query: '{ allEvents(filter: {event: {notEqualTo: "Transfer"}, contract: {like: "con_%"}}) { nodes { contract event } } }' },
    { name: 'filter/bigfloat', query: '{ allStates(filter: {valueNumeric: {greaterThan: "1000000"}}, orderBy: KEY_ASC) { nodes { key valueNumeric } } }' },
    { name: 'filter/datetime', query: '{ allBlocks(filter: {blockTimeIso: {greaterThanOrEqualTo: "2000-01-01T00:00:00Z"}}) { totalCount } }' },
    // Scalar input as PostgreSQL takes it (issue 31): its own `+00` output form, UTC, ISO basic format, infinity, a `+` sign
    { name: 'scalar/datetime-forms', query: '{ a: allBlocks(filter: {blockTimeIso: {greaterThan: "2000-01-01T00:00:00+00"}}) { totalCount } b: allBlocks(filter: {blockTimeIso: {greaterThan: "2000-01-01 00:00:00 UTC"}}) { totalCount } c: allBlocks(filter: {blockTimeIso: {greaterThan: "20000101T000000Z"}}) { totalCount } d: allBlocks(filter: {blockTimeIso: {lessThan: "infinity"}}) { totalCount } e: allBlocks(filter: {blockTimeIso: {lessThan: "-infinity"}}) { totalCount } f: allBlocks(filter: {blockTimeIso: {greaterThan: "2000-01-01"}}) { totalCount } g: allBlocks(filter: {blockTimeIso: {greaterThan: "2000-01-01T05:30:00+0530"}}) { totalCount } }' },
    { name: 'scalar/datetime-variable', query: 'query ($t: Datetime) { allBlocks(filter: {blockTimeIso: {greaterThanOrEqualTo: $t}}) { totalCount } }', variables: { t: '19700101 000000' } },
    { name: 'scalar/bigint-bigfloat-sign', query: '{ blockByHeight(height: "+5") { height } allBlocks(filter: {height: {lessThan: " +3 "}}) { totalCount } allStates(filter: {valueNumeric: {greaterThan: "+1000000"}}) { totalCount } }' },
    { name: 'error/datetime-invalid-day', query: '{ allBlocks(filter: {blockTimeIso: {greaterThan: "2026-02-29T00:00:00Z"}}) { nodes { height } } }' },
    { name: 'filter/relation-forward', query: `{ allEvents(filter: {transactionByTxHash: {sender: {equalTo: "${carol}"}, success: {equalTo: true}}}, orderBy: ID_ASC) { nodes { id event txHash } } }` },
    { name: 'filter/relation-forward-exists', query: '{ withTx: allStateChanges(filter: {transactionByTxHashExists: true}) { totalCount } withoutTx: allStateChanges(filter: {transactionByTxHashExists: false}) { totalCount } }' },
    { name: 'filter/relation-forward-nested', query: '{ allEvents(filter: {transactionByTxHash: {blockByBlockHeight: {txCount: {greaterThan: 1}}}}) { totalCount nodes { id txHash } } }' },
    { name: 'filter/relation-backward-some', query: '{ allBlocks(filter: {transactionsByBlockHeight: {some: {contract: {equalTo: "con_dex"}}}}) { nodes { height txCount } } }' },
    { name: 'filter/relation-backward-every-none', query: '{ every: allBlocks(filter: {transactionsByBlockHeight: {every: {success: {equalTo: true}}}}) { totalCount } none: allBlocks(filter: {transactionsByBlockHeight: {none: {contract: {equalTo: "currency"}}}}) { totalCount } }' },
    { name: 'filter/relation-backward-exist', query: '{ allBlocks(filter: {transactionsByBlockHeightExist: false}, first: 5, orderBy: HEIGHT_DESC) { nodes { height } } }' },
    // Empty and/or groups (issue 31): no condition at all wherever they stand, in filters and in having
    { name: 'filter/empty-or-and', query: '{ or: allTransactions(filter: {or: []}) { totalCount } and: allTransactions(filter: {and: []}) { totalCount } both: allTransactions(filter: {and: [], or: []}) { totalCount } }' },
    { name: 'filter/empty-or-inside-and', query: '{ allTransactions(filter: {and: [{or: []}, {contract: {in: ["currency", "con_dex"]}}]}, orderBy: HASH_ASC) { totalCount nodes { hash } } }' },
    { name: 'filter/empty-group-inside-or', query: '{ a: allTransactions(filter: {or: [{or: []}, {contract: {equalTo: "con_dex"}}]}) { totalCount } b: allTransactions(filter: {or: [{and: []}, {function: {equalTo: "approve"}}]}) { totalCount } }' },
    { name: 'filter/not-empty-group', query: '{ a: allTransactions(filter: {not: {and: []}}) { totalCount } b: allTransactions(filter: {not: {or: []}}) { totalCount } c: allTransactions(filter: {not: {or: [{or: []}]}, success: {equalTo: true}}) { totalCount } }' },
    { name: 'filter/relation-empty-group', query: '{ some: allBlocks(filter: {transactionsByBlockHeight: {some: {or: []}}}) { totalCount } none: allBlocks(filter: {transactionsByBlockHeight: {none: {and: []}}}) { totalCount } every: allBlocks(filter: {transactionsByBlockHeight: {every: {or: []}}}) { totalCount } forward: allEvents(filter: {transactionByTxHash: {or: []}}) { totalCount } }' },
    { name: 'aggregate/having-empty-groups', query: '{ a: allTransactions { groupedAggregates(groupBy: CONTRACT, having: {OR: []}) { keys } } b: allTransactions { groupedAggregates(groupBy: CONTRACT, having: {AND: []}) { keys } } c: allTransactions { groupedAggregates(groupBy: CONTRACT, having: {OR: [{OR: []}, {sum: {chiUsed: {greaterThan: "100000000"}}}]}) { keys } } }' },
    { name: 'error/filter-empty-item', query: '{ allTransactions(filter: {or: [{}]}) { nodes { hash } } }' },
    { name: 'error/filter-null-list', query: '{ allTransactions(filter: {or: null}) { nodes { hash } } }' },
    { name: 'error/filter-not-empty-object', query: '{ allTransactions(filter: {not: {}}) { nodes { hash } } }' },
    { name: 'error/json-filter-not-defined', query: '{ allEvents(filter: {dataIndexed: {contains: {pair: 1}}}) { nodes { id } } }' },

    // Aggregates
    { name: 'aggregate/transactions', query: '{ allTransactions { aggregates { sum { chiUsed nonce } min { blockHeight chiUsed } max { blockHeight txIndex } average { chiUsed } distinctCount { sender contract } stddevSample { chiUsed } variancePopulation { chiUsed } } } }' },
    { name: 'aggregate/grouped', query: '{ allTransactions(orderBy: CONTRACT_ASC) { groupedAggregates(groupBy: CONTRACT) { keys sum { chiUsed } distinctCount { sender } } } }' },
    { name: 'aggregate/grouped-having', query: '{ allTransactions { groupedAggregates(groupBy: [CONTRACT, FUNCTION], having: {sum: {chiUsed: {greaterThan: "100"}}}) { keys sum { chiUsed } max { blockHeight } } } }' },
    { name: 'aggregate/grouped-null-key', query: '{ allStateChanges { groupedAggregates(groupBy: TX_HASH) { keys distinctCount { key } } } }' },
    { name: 'aggregate/numeric-exact', query: '{ allStates(filter: {key: {startsWith: "currency.balances:"}}) { aggregates { sum { valueNumeric } average { valueNumeric } min { valueNumeric } } } }' },
    { name: 'aggregate/order-by-relation-count', query: '{ allBlocks(first: 5, orderBy: [TRANSACTIONS_BY_BLOCK_HEIGHT_COUNT_DESC, HEIGHT_ASC]) { nodes { height txCount } } }' },
    { name: 'aggregate/filtered', query: `{ allEvents(condition: {event: "Transfer"}) { aggregates { distinctCount { contract } } totalCount } allRewards(condition: {recipientKey: "${alice}"}) { aggregates { sum { value } } } }` },

    // Nested relations
    { name: 'nested/explorer-10-blocks', query: '{ allBlocks(first: 10, orderBy: HEIGHT_DESC) { nodes { height blockHash txCount transactionsByBlockHeight { nodes { hash sender contract function success eventsByTxHash { nodes { event contract data } } } } } } }' },
    { name: 'nested/explorer-50-blocks', query: '{ allBlocks(first: 50, orderBy: HEIGHT_DESC) { nodes { height transactionsByBlockHeight { totalCount nodes { hash eventsByTxHash { totalCount nodes { id event } } } } } } }' },
    { name: 'nested/genesis-state-changes', query: `{ blockByHeight(height: "0") { stateChangesByBlockHeight { totalCount nodes { changeId key } ${PAGE} } } }` },
    { name: 'nested/transaction-everything', query: `{ transactionByHash(hash: "${c.swaps[1]}") { hash blockByBlockHeight { height txCount } eventsByTxHash(orderBy: EVENT_INDEX_ASC) { totalCount nodes { eventIndex event data dataIndexed } } stateChangesByTxHash { totalCount nodes { key newValue previousTxHash } } rewardsByTxHash { totalCount nodes { type value } } } }` },
    { name: 'nested/event-up', query: '{ allEvents(first: 5, orderBy: ID_DESC) { nodes { id transactionByTxHash { hash blockByBlockHeight { height } } blockByBlockHeight { height } } } }' },
    { name: 'nested/relation-args', query: `{ blockByHeight(height: "${c.batch.height}") { transactionsByBlockHeight(orderBy: TX_INDEX_DESC, first: 2) { totalCount nodes { txIndex hash } ${PAGE} } } }` },
    { name: 'nested/state-patch-block', query: `{ blockByHeight(height: "${c.patchHeight}") { height statePatchRecordsByBlockHeight { nodes { patchCount patches } } stateChangesByBlockHeight { nodes { key originType newValue } } } }` },
    { name: 'nested/contract-relations', query: `{ contractByName(name: "${c.token}") { name transactionByLastTxHash { hash function } blockBySubmittedAtBlock { height } } }` },
    { name: 'nested/address-relations', query: `{ addressByAddress(address: "${carol}") { address transactionByLastTxHash { hash contract } } }` },
    { name: 'nested/relation-aggregates', query: '{ allBlocks(first: 6, orderBy: HEIGHT_DESC) { nodes { height transactionsByBlockHeight { aggregates { sum { chiUsed } } } } } }' },

    // Work limits that refuse only real work (issue 31): "fetch all" idioms, capped children, 10 relation levels
    { name: 'limits/fetch-all-idioms', query: '{ allTransactions(first: 2147483647, orderBy: HASH_ASC) { totalCount nodes { hash } pageInfo { hasNextPage } } allBlocks(first: 1000000) { nodes { height } } allEvents(first: 250000) { totalCount } }' },
    { name: 'limits/explorer-capped-children', query: '{ allBlocks(first: 100, orderBy: HEIGHT_DESC) { nodes { height transactionsByBlockHeight(first: 100) { nodes { hash eventsByTxHash(first: 100) { nodes { id event } } } } } } }' },
    { name: 'limits/ten-relation-levels', query: '{ allBlocks(first: 1, orderBy: HEIGHT_DESC, filter: {txCount: {greaterThan: 0}}) { nodes { height transactionsByBlockHeight(first: 1, orderBy: TX_INDEX_ASC) { nodes { hash blockByBlockHeight { height transactionsByBlockHeight(first: 1, orderBy: TX_INDEX_ASC) { nodes { hash blockByBlockHeight { height transactionsByBlockHeight(first: 1, orderBy: TX_INDEX_ASC) { nodes { hash blockByBlockHeight { height transactionsByBlockHeight(first: 1, orderBy: TX_INDEX_ASC) { nodes { hash blockByBlockHeight { height transactionsByBlockHeight(first: 1, orderBy: TX_INDEX_ASC) { nodes { hash  } } } } } } } } } } } } } } } } }' },
    // Documents: operation names, fragments, aliases, directives, variables with defaults, field order
    { name: 'doc/operation-name', query: '', rawBody: JSON.stringify({ query: 'query A { blockByHeight(height: "1") { height } } query B { blockByHeight(height: "2") { height blockHash } }', operationName: 'B' }) },
    { name: 'doc/fragments-aliases-typename', query: `fragment T on Transaction { hash function } { first: transactionByHash(hash: "${c.transfers[0]}") { __typename ...T } second: transactionByHash(hash: "${c.deploy}") { ... on Transaction { ...T success } } }` },
    { name: 'doc/include-skip', query: 'query ($withTxs: Boolean = true, $skipHash: Boolean!) { blockByHeight(height: "5") { height blockHash @skip(if: $skipHash) transactionsByBlockHeight @include(if: $withTxs) { totalCount } } }', variables: { skipHash: true } },
    { name: 'doc/variable-defaults', query: 'query ($n: Int = 3, $order: [BlocksOrderBy!] = [HEIGHT_DESC]) { allBlocks(first: $n, orderBy: $order) { nodes { height } } }' },
    { name: 'doc/type-field-order', query: '{ block: __type(name: "Block") { fields { name } } query: __type(name: "Query") { fields { name args { name } } } }' },
    { name: 'doc/typename-root', query: '{ __typename }' },

    // More paging, ordering and filtering forms
    { name: 'conn/first-above-1000', query: '{ allStateChanges(first: 2000, orderBy: CHANGE_ID_ASC) { totalCount nodes { changeId } pageInfo { hasNextPage } } }' },
    { name: 'conn/last-after', from: 'conn/allBlocks-first-desc', variablesFrom: (p) => ({ after: p.data.allBlocks.pageInfo.endCursor }), query: `query ($after: Cursor) { allBlocks(last: 3, orderBy: HEIGHT_DESC, after: $after) { nodes { height } ${PAGE} } }` },
    { name: 'conn/cursor-other-order', from: 'conn/allBlocks-first-desc', variablesFrom: (p) => ({ after: p.data.allBlocks.pageInfo.endCursor }), query: 'query ($after: Cursor) { allBlocks(first: 2, orderBy: HEIGHT_ASC, after: $after) { nodes { height } } }' },
    { name: 'conn/variables-paging', query: 'query ($first: Int, $offset: Int) { allEvents(first: $first, offset: $offset, orderBy: [CONTRACT_ASC, ID_DESC]) { nodes { id contract } pageInfo { hasNextPage hasPreviousPage } } }', variables: { first: 4, offset: 2 } },
    { name: 'conn/order-by-nullable', query: '{ allRewards(orderBy: [SOURCE_CONTRACT_DESC, VALUE_ASC], first: 8) { nodes { id sourceContract value } } }' },
    { name: 'condition/bigfloat-datetime', query: `{ allStates(condition: {valueNumeric: "4242.5"}) { nodes { key } } allBlocks(condition: {blockTimeIso: "1970-01-01T00:00:00+00:00"}) { nodes { height } } }` },
    { name: 'condition/json-object', query: `{ allEvents(condition: {dataIndexed: ${JSON.stringify(JSON.stringify({ to: carol, pair: 1 }))}}) { nodes { id event txHash } } }` },
    { name: 'filter/string-operators', query: '{ a: allContracts(filter: {name: {endsWith: "_token"}}) { nodes { name } } b: allContracts(filter: {name: {includes: "test"}, xsc001: {equalTo: true}}) { nodes { name } } c: allContracts(filter: {name: {likeInsensitive: "CON_%USD"}}) { nodes { name } } d: allContracts(filter: {name: {notIn: ["currency", "submission"]}, submittedAtBlock: {in: ["0"]}}) { totalCount } }' },
    { name: 'filter/isNull-false-boolean', query: '{ allRewards(filter: {sourceContract: {isNull: false}}) { totalCount } allTransactions(filter: {success: {notEqualTo: true}}) { nodes { hash } } }' },
    { name: 'filter/datetime-lessThan', query: '{ allBlocks(filter: {blockTimeIso: {lessThan: "2000-01-01T00:00:00Z"}}) { nodes { height blockTimeIso } } }' },
    { name: 'filter/variables', query: 'query ($f: TransactionFilter) { allTransactions(filter: $f, orderBy: HASH_ASC) { nodes { hash chiUsed } } }', variables: { f: { chiUsed: { greaterThanOrEqualTo: '100' }, contract: { notEqualTo: 'con_dex' } } } },
    { name: 'aggregate/grouped-by-day', query: '{ allBlocks { groupedAggregates(groupBy: BLOCK_TIME_ISO_TRUNCATED_TO_DAY) { keys distinctCount { height } sum { txCount } } } }' },
    { name: 'aggregate/relation-filter', query: '{ allBlocks(filter: {transactionsByBlockHeight: {aggregates: {sum: {chiUsed: {greaterThan: "100"}}, distinctCount: {sender: {equalTo: "1"}}}}}, orderBy: HEIGHT_ASC) { nodes { height txCount } } }' },
    { name: 'aggregate/relation-filter-with-filter', query: '{ allBlocks(filter: {transactionsByBlockHeight: {aggregates: {filter: {contract: {equalTo: "currency"}}, max: {txIndex: {greaterThanOrEqualTo: 2}}}}}) { nodes { height } } }' },
    { name: 'aggregate/nested-grouped', query: `{ blockByHeight(height: "${c.batch.height}") { transactionsByBlockHeight { groupedAggregates(groupBy: SENDER) { keys sum { chiUsed } } } } }` },
    { name: 'nested/condition-filter-order', query: `{ transactionByHash(hash: "${c.swaps[0]}") { eventsByTxHash(condition: {contract: "con_pairs"}, filter: {event: {notEqualTo: "Sync"}}, orderBy: EVENT_INDEX_DESC) { nodes { event eventIndex } } } }` },
    { name: 'nested/deep', query: '{ allEvents(first: 2, orderBy: ID_DESC) { nodes { transactionByTxHash { blockByBlockHeight { transactionsByBlockHeight { nodes { eventsByTxHash { nodes { blockByBlockHeight { height txCount } } } } } } } } } }' },
    { name: 'nested/state-change-relations', query: '{ allStateChanges(filter: {originType: {notEqualTo: "genesis"}}, first: 3, orderBy: CHANGE_ID_ASC) { nodes { changeId transactionByTxHash { hash function } blockByBlockHeight { height } } } }' },
    { name: 'node/event-and-state', query: `{ e: node(nodeId: "${b64(['events', '2'])}") { __typename ... on Event { id event } } s: node(nodeId: "${b64(['states', `currency.balances:${dave}`])}") { __typename ... on State { key valueNumeric } } }` },
    { name: 'node/unknown-table', query: `{ node(nodeId: "${b64(['nope', '1'])}") { nodeId } }` },

    // Errors
    { name: 'error/negative-first', query: '{ allBlocks(first: -1) { nodes { height } } }' },
    { name: 'error/negative-offset', query: '{ allBlocks(offset: -1) { nodes { height } } }' },
    { name: 'error/bad-cursor', query: '{ allBlocks(after: "bm9wZQ==") { nodes { height } } }' },
    { name: 'error/bad-bigint', query: '{ blockByHeight(height: "abc") { height } }' },
    { name: 'error/bad-json-condition', query: '{ allStates(condition: {value: "None"}) { nodes { key } } }' },
    { name: 'error/syntax', query: '{ allBlocks(' },
    { name: 'error/syntax-accept-json', query: '{ allBlocks(', headers: { accept: 'application/json' } },
    { name: 'error/syntax-accept-graphql-response', query: '{ allBlocks(', headers: { accept: 'application/graphql-response+json' } },
    { name: 'error/events-exists-not-defined', query: '{ allEvents(filter: {transactionByTxHashExists: true}) { totalCount } }' },
    { name: 'error/unknown-field', query: '{ allBlocks { nodes { heigth } } }' },
    { name: 'error/unknown-field-accept-json', query: '{ allBlocks { nodes { heigth } } }', headers: { accept: 'application/json' } },
    { name: 'error/unknown-argument', query: '{ allBlocks(limit: 3) { nodes { height } } }' },
    { name: 'error/mutation', query: 'mutation { __typename }' },
    { name: 'error/missing-variable', query: 'query ($h: BigInt!) { blockByHeight(height: $h) { height } }' },
    { name: 'error/wrong-variable-type', query: 'query ($h: BigInt!) { blockByHeight(height: $h) { height } }', variables: { h: { x: 1 } } },
    { name: 'error/no-query', query: '', rawBody: '{"variables":{}}' },
    { name: 'error/not-json', query: '', rawBody: '{"query": ' },
    { name: 'error/int-overflow', query: '{ allBlocks(first: 3000000000) { nodes { height } } }' },
    { name: 'error/unknown-enum', query: '{ allBlocks(orderBy: HEIGHT_SIDEWAYS) { nodes { height } } }' },
    { name: 'error/unknown-condition-field', query: '{ allBlocks(condition: {hieght: "1"}) { nodes { height } } }' },
    { name: 'error/filter-wrong-type', query: '{ allBlocks(filter: {height: {equalTo: true}}) { nodes { height } } }' },
    { name: 'error/batch', query: '', rawBody: '[{"query":"{ __typename }"},{"query":"{ __typename }"}]' },
    { name: 'error/body-too-large', query: '', rawBody: JSON.stringify({ query: `{ __typename }${' '.repeat(1_100_000)}` }) },
    { name: 'error/get-query', query: '', get: '?query=%7B__typename%7D' },
    { name: 'error/graphiql-disabled', query: '', get: '/../graphiql' },
    { name: 'http/content-type-graphql', query: '', rawBody: '{ blockByHeight(height: "1") { height } }', headers: { 'content-type': 'application/graphql' } },
    { name: 'error/content-type-text', query: '{ __typename }', headers: { 'content-type': 'text/plain' } },
    { name: 'error/partial', query: '{ blockByHeight(height: "1") { height } allBlocks(first: -5) { nodes { height } } }' },
    { name: 'agg/grouped-no-group-key', query: '{ allBlocks { groupedAggregates(groupBy: []) { keys } } allTransactions { groupedAggregates(groupBy: [SENDER]) { keys } } }' },
    // Field errors and request errors under each media type a client may accept (GraphQL over HTTP).
    { name: 'error/negative-first-accept-json', query: '{ allBlocks(first: -1) { nodes { height } } }', headers: { accept: 'application/json' } },
    { name: 'error/mutation-accept-json', query: 'mutation { __typename }', headers: { accept: 'application/json' } },
    { name: 'error/mutation-accept-graphql-response', query: 'mutation { __typename }', headers: { accept: 'application/graphql-response+json' } },
    { name: 'error/subscription', query: 'subscription { __typename }' },
    { name: 'error/missing-variable-accept-json', query: 'query ($h: BigInt!) { blockByHeight(height: $h) { height } }', headers: { accept: 'application/json' } },
    { name: 'error/offset-with-last', query: '{ allBlocks(last: 2, offset: 1) { nodes { height } } }' },
    { name: 'error/filter-empty-object', query: '{ allBlocks(filter: {}) { nodes { height } } }' },
    { name: 'error/filter-null-operand', query: '{ allBlocks(filter: {height: {in: null}}) { nodes { height } } }' },
    { name: 'error/condition-bad-bigint', query: '{ allBlocks(condition: {height: "x"}) { nodes { height } } }' },
    { name: 'error/bigint-int-literal', query: '{ blockByHeight(height: 5) { height } }' },
    { name: 'error/cursor-variable-number', query: 'query ($c: Cursor) { allBlocks(after: $c) { totalCount } }', variables: { c: 5 } },
    { name: 'error/unknown-operation', query: 'query A { a: __typename } query B { b: __typename }', rawBody: JSON.stringify({ query: 'query A { a: __typename } query B { b: __typename }', operationName: 'C' }) },
    { name: 'error/operation-not-chosen', query: '', rawBody: JSON.stringify({ query: 'query A { a: __typename } query B { b: __typename }' }) },
    { name: 'error/empty-query', query: '', rawBody: '{"query":""}' },
    { name: 'error/null-body', query: '', rawBody: 'null' },
    { name: 'error/variables-not-object', query: '', rawBody: '{"query":"{ __typename }","variables":[1]}' },
    { name: 'error/operation-name-not-string', query: '', rawBody: '{"query":"{ __typename }","operationName":5}' },
    { name: 'error/variables-as-json-text', query: '', rawBody: JSON.stringify({ query: 'query ($h: BigInt!) { blockByHeight(height: $h) { height } }', variables: JSON.stringify({ h: '1' }) }) },
  ];
  return q;
}
