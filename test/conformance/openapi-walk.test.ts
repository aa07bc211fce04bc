import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import yaml from 'js-yaml';
import { openDevnet, signedTx, txParam } from '../plugins/devnet/node/devnet-fixture.js';
import type { DevAccount } from '../../plugins/devnet/node/devnet.js';

/**
 * Walks CometBFT 0.38's OpenAPI file (the reference copy) so no method is forgotten: every path
 * is either served by the devnet — over URI and JSON-RPC, its answer carrying every `required`
 * member of the documented schema, recursively — or answers CometBFT's own error for it.
 */
// Verbatim copy of cometbft/cometbft:rpc/openapi/openapi.yaml at v0.38.12 (Apache-2.0).
const SPEC_FILE = new URL('./fixtures/cometbft-openapi.yaml', import.meta.url);

interface Schema { $ref?: string; type?: string; required?: string[]; properties?: Record<string, Schema>; items?: Schema; allOf?: Schema[] }
interface Spec {
  paths: Record<string, { get?: { responses: Record<string, { content?: { 'application/json'?: { schema: Schema } } }> } }>;
  components: { schemas: Record<string, Schema> };
}

/** Paths a CometBFT node with default config answers with an error, and which. */
const REFUSED: Record<string, { status: number; text?: string; error?: { code: number; data: RegExp } }> = {
  // `[rpc] unsafe = false` (the default): the routes are not registered at all.
  '/dial_seeds': { status: 404, text: '404 page not found\n' },
  '/dial_peers': { status: 404, text: '404 page not found\n' },
  // No evidence can verify against a one-validator devnet (plugins/devnet/node/README.md).
  '/broadcast_evidence': { status: 500, error: { code: -32603, data: /^no evidence was provided$/ } },
};

/**
 * Members the OpenAPI file marks required that CometBFT 0.38 itself omits or nulls
 * (cometbft-rpc.md: the page describes what the server emits where the two disagree).
 */
const SERVER_OMITS = new Set<string>([
  // The file puts `error` beside `result`; a JSON-RPC answer carries one or the other.
  ...['abci_query', 'broadcast_tx_async', 'broadcast_tx_commit', 'broadcast_tx_sync', 'check_tx'].map((m) => `${m}.error`),
  // 0.38 renamed deliver_tx to tx_result and proof to proofOps (cometbft-rpc.md §3, §4.11).
  'broadcast_tx_commit.result.deliver_tx',
  'abci_query.result.response.proof',
  // The file describes commit signatures as votes; 0.38's CommitSig is {block_id_flag, validator_address, timestamp, signature} (§4.6).
  ...['block_id', 'height', 'round', 'type', 'validator_index'].flatMap((k) => [
    `block.result.block.last_commit.signatures[].${k}`,
    `block_by_hash.result.block.last_commit.signatures[].${k}`,
    `block_search.result.blocks[].block.last_commit.signatures[].${k}`,
  ]),
  // Consensus params and results of older versions: time_iota_ms and evidence.max_age went in 0.34-0.36, tags in 0.34.
  ...['consensus_params.result.consensus_params', 'genesis.result.genesis.consensus_params'].flatMap((p) => [`${p}.block.time_iota_ms`, `${p}.evidence.max_age`]),
  'tx.result.tx_result.tags',
  'tx_search.result.txs[].tx_result.tags',
]);

describe('the devnet against CometBFT 0.38 OpenAPI (cometbft-openapi.yaml)', function () {
  this.timeout(60_000);
  const spec = yaml.load(readFileSync(SPEC_FILE, 'utf8')) as Spec;
  let net: Awaited<ReturnType<typeof openDevnet>>;
  let url: string;
  let args: Record<string, Record<string, string>>;

  before(async () => {
    net = await openDevnet();
    url = (await net.devnet.listen({ port: 0, metricsPort: null })).rpcUrl;
    const [a, b] = net.devnet.accounts() as [DevAccount, DevAccount];
    const tx = signedTx({ privateKey: a.privateKey, sender: a.address, nonce: 0, kwargs: { amount: 1, to: b.address } });
    const committed = await net.devnet.rpc.call<any>('broadcast_tx_commit', { tx: txParam(tx.hex) });
    const block = await net.devnet.rpc.call<any>('block', { height: committed.height });
    const next = signedTx({ privateKey: a.privateKey, sender: a.address, nonce: 1, kwargs: { amount: 1, to: b.address } });
    const next2 = signedTx({ privateKey: a.privateKey, sender: a.address, nonce: 2, kwargs: { amount: 1, to: b.address } });
    const next3 = signedTx({ privateKey: a.privateKey, sender: a.address, nonce: 1, chi: 999, kwargs: { amount: 1, to: b.address } });
    args = {
      broadcast_tx_sync: { tx: `"${next.hex}"` },
      broadcast_tx_async: { tx: `"${next2.hex}"` },
      broadcast_tx_commit: { tx: `"${signedTx({ privateKey: b.privateKey, sender: b.address, nonce: 0, kwargs: { amount: 1, to: a.address } }).hex}"` },
      check_tx: { tx: `"${next3.hex}"` },
      header_by_hash: { hash: `0x${block.block_id.hash}` },
      block_by_hash: { hash: `0x${block.block_id.hash}` },
      tx: { hash: `0x${committed.hash}` },
      tx_search: { query: `"tx.height=${committed.height}"` },
      block_search: { query: '"block.height > 0"' },
      abci_query: { path: `"/get/currency.balances:${a.address}"` },
      block: { height: committed.height },
    };
  });
  after(async () => net.close());

  const resolve = (s: Schema): Schema => (s.$ref ? resolve(spec.components.schemas[s.$ref.split('/').pop()!]!) : s);

  /** Every `required` member present (recursively, where the value is not null). */
  function conforms(value: unknown, schema: Schema, at: string, problems: string[]): void {
    const s = resolve(schema);
    for (const part of s.allOf ?? []) conforms(value, part, at, problems);
    if (value === null || value === undefined) return;
    if (Array.isArray(value)) {
      if (s.items) value.forEach((v, i) => conforms(v, s.items!, `${at}[${i}]`, problems));
      return;
    }
    if (typeof value !== 'object') return;
    const obj = value as Record<string, unknown>;
    for (const key of s.required ?? []) {
      const where = `${at}.${key}`.replace(/\[\d+\]/g, '[]');
      if (!(key in obj) && !SERVER_OMITS.has(where) && !problems.includes(where)) problems.push(where);
    }
    for (const [key, sub] of Object.entries(s.properties ?? {})) if (key in obj) conforms(obj[key], sub, `${at}.${key}`, problems);
  }

  /** The file documents /header and /header_by_hash as the bare header, without the envelope. */
  const documented = (method: string, body: any) => (method === 'header' || method === 'header_by_hash' ? body.result.header : body);

  it('covers every path of the file (served or refused as CometBFT refuses it)', async () => {
    const paths = Object.keys(spec.paths);
    const lacking: string[] = [];
    assert.ok(paths.length >= 30, `the OpenAPI file lists ${paths.length} paths`);
    for (const path of paths) {
      const method = path.slice(1);
      const query = new URLSearchParams(args[method] ?? {}).toString();
      const res = await fetch(`${url}${path}${query ? `?${query}` : ''}`);
      const text = await res.text();
      const refused = REFUSED[path];
      if (refused) {
        assert.equal(res.status, refused.status, `${path}: ${text}`);
        if (refused.text !== undefined) assert.equal(text, refused.text, path);
        if (refused.error) {
          const body = JSON.parse(text);
          assert.equal(body.error.code, refused.error.code, path);
          assert.match(body.error.data, refused.error.data, path);
        }
        const rpc = await (await fetch(url, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: {} }) })).json() as any;
        assert.ok(rpc.error, `${method} over JSON-RPC is an error too`);
        continue;
      }
      assert.equal(res.status, 200, `${path}: ${text}`);
      const body = JSON.parse(text);
      const schema = spec.paths[path]!.get!.responses['200']!.content!['application/json']!.schema;
      conforms(documented(method, body), schema, method, lacking);
    }
    assert.deepEqual(lacking, [], 'documented members the answers lack');
  });

  it('serves the same methods over JSON-RPC with the documented shapes', async () => {
    const lacking: string[] = [];
    for (const path of Object.keys(spec.paths)) {
      const method = path.slice(1);
      if (REFUSED[path] || method.startsWith('broadcast_tx') || method === 'check_tx') continue;
      const params = Object.fromEntries(Object.entries(args[method] ?? {}).map(([k, v]) => [k, jsonRpcParam(k, v)]));
      const body = await (await fetch(url, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }) })).json() as any;
      assert.equal(body.id, 7);
      assert.ok(body.result, `${method}: ${JSON.stringify(body.error)}`);
      conforms(documented(method, body), spec.paths[path]!.get!.responses['200']!.content!['application/json']!.schema, method, lacking);
    }
    assert.deepEqual(lacking, [], 'documented members the answers lack');
  });

  it('block_search finds blocks by height, newest first unless asked, paginated', async () => {
    const latest = net.devnet.node.height;
    const all = await net.devnet.rpc.call<any>('block_search', { query: 'block.height >= 1' });
    assert.equal(all.total_count, String(latest));
    assert.deepEqual(all.blocks.map((b: any) => Number(b.block.header.height)), Array.from({ length: latest }, (_, i) => latest - i));
    const asc = await net.devnet.rpc.call<any>('block_search', { query: 'block.height >= 1', order_by: 'asc', per_page: '1', page: '2' });
    assert.equal(asc.blocks[0].block.header.height, '2');
    await assert.rejects(net.devnet.rpc.call('block_search', { query: 'block.height >= 1', order_by: 'up' }), (e: any) => e.data === 'expected order_by to be either `asc` or `desc` or empty');
    await assert.rejects(net.devnet.rpc.call('block_search', { query: 'block.height >= 1', page: '99' }), (e: any) => /^page should be within \[1, 1\] range, given 99$/.test(e.data));
  });

  it('genesis_chunked returns the genesis JSON in base64 chunks and CometBFT\'s error past the last', async () => {
    const chunk = await net.devnet.rpc.call<any>('genesis_chunked', {});
    assert.deepEqual([chunk.chunk, chunk.total], ['0', '1']);
    const genesis = await net.devnet.rpc.call<any>('genesis', {});
    assert.deepEqual(JSON.parse(Buffer.from(chunk.data, 'base64').toString('utf8')), genesis.genesis);
    await assert.rejects(net.devnet.rpc.call('genesis_chunked', { chunk: '1' }), (e: any) => e.code === -32603 && e.data === 'there are 0 chunks, 1 is invalid');
  });

  it('broadcast_evidence: decoding, ValidateBasic and the evidence pool refuse as CometBFT does', async () => {
    const call = (evidence: unknown) => net.devnet.rpc.call('broadcast_evidence', { evidence });
    await assert.rejects(call({ type: 'tendermint/Unknown', value: {} }), (e: any) => e.code === -32602);
    await assert.rejects(call({ type: 'tendermint/DuplicateVoteEvidence', value: {} }), (e: any) => e.data === 'evidence.ValidateBasic failed: one or both of the votes are empty <nil>, <nil>');
    const vote = { validator_address: 'AB'.repeat(20), height: '1' };
    await assert.rejects(call({ type: 'tendermint/DuplicateVoteEvidence', value: { vote_a: vote, vote_b: vote } }), (e: any) => /^failed to add evidence: verifying duplicate vote evidence: address (AB){20} was not a validator at height 1$/.test(e.data));
  });

  it('unknown paths answer CometBFT\'s 404, for plain requests and WebSocket upgrades alike', async () => {
    const plain = await fetch(`${url}/no_such_method`);
    assert.equal(plain.status, 404);
    assert.equal(await plain.text(), '404 page not found\n');
    const { default: WebSocket } = await import('ws');
    const status = await new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(`${url.replace('http', 'ws')}/not-websocket`);
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.once('open', () => reject(new Error('upgraded')));
      ws.once('error', reject);
    });
    assert.equal(status, 404);
  });
});

/** A URI argument in JSON-RPC form: quoted strings unquoted, 0x-hex as hex (HexBytes) or base64 ([]byte). */
function jsonRpcParam(name: string, uri: string): string {
  if (uri.startsWith('"')) return JSON.parse(uri) as string;
  if (uri.startsWith('0x')) return name === 'hash' ? Buffer.from(uri.slice(2), 'hex').toString('base64') : uri.slice(2);
  return uri;
}
