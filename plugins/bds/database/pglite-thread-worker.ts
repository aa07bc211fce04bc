import { PGlite } from '@electric-sql/pglite';
import { mkdirSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { pgliteParsers } from './pg-types.js';
import { errorFields, type PgliteParserProfile, type PgliteReply, type PgliteRequest, type PgliteThreadData } from './pglite-thread-protocol.js';

/**
 * The BDS's PGlite, in a worker thread of its own: PostgreSQL compiled to WebAssembly runs every
 * statement synchronously on the thread that calls it, so on the host's event loop initdb, a
 * migration, a reindex batch or a whole-table aggregate would hold every RPC, tool and GraphQL
 * answer until it finished. Requests run one at a time in arrival order (PGlite is one session:
 * a transaction's statements must not interleave with anything else); rows are parsed here
 * with the BDS's type parsers and cloned to the client.
 */
const { dir, parsers } = workerData as PgliteThreadData;
const TEXT_OIDS = [20 /* int8 */, 1700 /* numeric */, 1114 /* timestamp */, 1184 /* timestamptz */];
const PARSERS: Record<PgliteParserProfile, () => Record<number, (text: string) => unknown>> = {
  bds: pgliteParsers,
  text: () => Object.fromEntries(TEXT_OIDS.map((oid) => [oid, (text: string) => text])),
};
const port = parentPort!;
const memory = dir.startsWith('memory://');
if (!memory) mkdirSync(dir, { recursive: true });
const options = { parsers: PARSERS[parsers]() };
const pglite = memory ? new PGlite(options) : new PGlite(dir, options);
const ready = pglite.waitReady.then(() => pglite.exec(`SET TIME ZONE 'UTC'`));
ready.then(() => post({ kind: 'ready' }), (err: unknown) => post({ kind: 'failed', error: errorFields(err) }));

let queue: Promise<unknown> = ready;
port.on('message', (request: PgliteRequest) => {
  queue = queue.then(() => answer(request), () => answer(request));
});

async function answer(request: PgliteRequest): Promise<void> {
  try {
    await ready;
    post({ kind: 'result', id: request.id, result: await run(request) });
  } catch (err) {
    post({ kind: 'error', id: request.id, error: errorFields(err) });
  }
  if (request.op === 'close') port.close();
}

async function run(request: PgliteRequest): Promise<unknown> {
  switch (request.op) {
    case 'query':
      return pglite.query(request.sql, request.params, request.options);
    case 'exec':
      return pglite.exec(request.sql);
    case 'close':
      if (!pglite.closed) await pglite.close();
      return null;
  }
}

function post(reply: PgliteReply): void {
  port.postMessage(reply);
}
