import { internal } from './rpc-blocks.js';
import { jsonText } from './json-text.js';

/**
 * `genesis_chunked` (rpc/core/net.go GenesisChunked): the genesis document as compact JSON, cut
 * into 16 MiB pieces, each base64; `chunk` and `total` are Go ints, so JSON strings.
 */
const CHUNK_BYTES = 16 * 1024 * 1024;

export function genesisChunk(genesis: unknown, chunk: number | undefined): { chunk: string; total: string; data: string } {
  const doc = Buffer.from(jsonText(genesis), 'utf8');
  const total = Math.max(1, Math.ceil(doc.length / CHUNK_BYTES));
  const id = chunk ?? 0;
  if (id < 0 || id > total - 1) throw internal(`there are ${total - 1} chunks, ${id} is invalid`);
  return { chunk: String(id), total: String(total), data: doc.subarray(id * CHUNK_BYTES, (id + 1) * CHUNK_BYTES).toString('base64') };
}
