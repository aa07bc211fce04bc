import { decodedAbciQuery, type DecodedAbciQuery, type ResponseQuery } from 'chainhost/chain';
import { type ParsedQueryPath, parseQueryPath, type QueryAnswer, type QueryPathDefinition, QueryPathError } from 'chainhost/plugin';
import { answerOf, jsonAnswer, plainJsonText } from './query-answer.js';
import { contractInfo, contractIr, contractMethods, contractSource, contractVars, listContracts } from '../engine/contract-queries.js';
import type { Executor } from '../engine/executor.js';
import type { StateReader } from '../engine/types.js';
import { VALIDATOR_ROUTES } from './validator-queries.js';
import { keysQuery } from './keys-query.js';
import { committedNonce } from './check-tx.js';
import type { NonceReservations } from './nonce-reservations.js';
import type { PerfStatus } from './perf-status.js';
import { DecodingStateReader } from './state-reader.js';
import type { TextStateReader } from './state-store.js';

/**
 * The node's `abci_query` (abci-query.md): the spec's height/prove rule first, then the path
 * grammar, the core routes, then routes contributed by plugins (BDS…) through `resolver`.
 * Unknown route → code 1, value `AA==`, `Unknown query path: <route>`; a handler failure, an
 * empty path or a missing key part (query.py's IndexError) → code 1 with no value, and
 * (chainhost's choice) a short reason in `log`. The response
 * `height` is always the committed height.
 */
export type QueryResolver = (path: string) => { definition: QueryPathDefinition; query: ParsedQueryPath } | undefined;

export interface AbciQueryDeps {
  chainId: string;
  state: TextStateReader;
  /** For the `validators_*` view calls. */
  executor: Executor;
  /** The latest committed block's time (ns) and lowercase hash. */
  latestBlock(): { timeNanos: bigint; hash: string } | undefined;
  reservations: NonceReservations;
  perf: PerfStatus;
  simulate(hex: string): Promise<QueryAnswer>;
  patchBundles(): unknown[];
  scheduledPatches(height: number): unknown[];
  resolver?: QueryResolver;
}

export interface AbciQueryArgs {
  path: string;
  height?: number;
  prove?: boolean;
  signal?: AbortSignal;
}

type Handler = (q: ParsedQueryPath, key: string) => QueryAnswer | Promise<QueryAnswer>;

/**
 * Core routes whose upstream handler reads `path_parts[1]` (query.py): without that part it
 * raises IndexError, answered as code 1 with no value, info or key.
 */
const NEEDS_KEY = new Set([
  'get', 'get_next_nonce', 'contract_source', 'contract_ir', 'contract_methods', 'contract_vars', 'contract_info',
  'simulate_tx', 'scheduled_state_patches',
]);

export class AbciQuery {
  private readonly routes: Record<string, Handler>;
  private contractKeys: { height: number; keys: string[] } | undefined;

  constructor(private readonly deps: AbciQueryDeps) {
    const reader = new DecodingStateReader(deps.state);
    this.routes = {
      get: (_q, key) => answerOf(reader.get(key)),
      health: () => answerOf('OK'),
      ping: () => jsonAnswer({ status: 'online' }),
      get_next_nonce: (_q, address) => answerOf(BigInt(deps.reservations.nextNonce(address, committedNonce(deps.state, address)))),
      contract_source: (_q, name) => answerOf(contractSource(reader, name)),
      contract_ir: (_q, name) => answerOf(contractIr(reader, name)),
      contract_methods: (_q, name) => jsonAnswer(contractMethods(reader, name)),
      contract_vars: (_q, name) => jsonAnswer(contractVars(reader, name)),
      contract_info: (_q, name) => jsonAnswer(contractInfo(reader, name)),
      contracts: (q) => jsonAnswer(listContracts(this.contractIndex(reader), contractListOptions(q.params))),
      keys: (q, prefix) => keysQuery(deps.state, prefix, q.params),
      perf_status: () => ({ info: 'dict', text: plainJsonText(deps.perf.status()) }),
      simulate_tx: (_q, hex) => deps.simulate(hex),
      state_patch_bundles: () => jsonAnswer(deps.patchBundles()),
      scheduled_state_patches: (_q, height) => jsonAnswer(deps.scheduledPatches(pythonInt(height, 'height'))),
    };
    for (const [route, handler] of Object.entries(VALIDATOR_ROUTES)) {
      this.routes[route] = (q, key) => {
        const latest = deps.latestBlock();
        return handler({
          reader, executor: deps.executor, chainId: deps.chainId, height: deps.state.height,
          timeNanos: latest?.timeNanos ?? 0n, blockHash: latest?.hash,
        }, key, q.params);
      };
    }
  }

  /** Core routes handled by the node itself (contributed paths may not shadow them). */
  get coreRoutes(): string[] {
    return Object.keys(this.routes);
  }

  /**
   * The wire response (base64 key and value), at once when the route answers synchronously
   * (state reads, the hot path of every balance lookup), else a promise; an in-process caller
   * then skips the deadline and abort machinery a pending answer needs (devnet-chain-rpc.ts).
   * Never throws: failures are code-1 responses.
   */
  query(args: AbciQueryArgs): ResponseQuery | Promise<ResponseQuery> {
    const outcome = this.answer(args);
    return outcome instanceof Promise ? outcome.then(wireResponse) : wireResponse(outcome);
  }

  /** The same answer as `query`, decoded as `decodeAbciQuery` would read it, without encoding it first. */
  decoded(args: AbciQueryArgs): DecodedAbciQuery | Promise<DecodedAbciQuery> {
    const outcome = this.answer(args);
    return outcome instanceof Promise ? outcome.then(decodedResponse) : decodedResponse(outcome);
  }

  private answer(args: AbciQueryArgs): QueryOutcome | Promise<QueryOutcome> {
    const height = this.deps.state.height;
    const refused = (log: string, noValueByte = false): QueryOutcome => ({ code: 1, log, info: '', text: null, key: null, height, noValueByte });
    if (args.prove) return refused('Query proofs are not supported; send prove=false');
    const h = args.height ?? 0;
    if (h !== 0 && h !== height) {
      return refused(`Unsupported query height ${h}; only 0 or the latest committed height ${height} can be queried`);
    }
    const q = parseQueryPath(args.path);
    const key = q.parts[0] ?? '';
    // query.py indexes path_parts[0] before routing: an empty path is an IndexError, not an unknown route.
    if (q.route === '') return refused('empty query path; expected /<route>/…');
    const handler = Object.prototype.hasOwnProperty.call(this.routes, q.route) ? this.routes[q.route] : undefined;
    if (handler && NEEDS_KEY.has(q.route) && q.parts.length === 0) return refused(`/${q.route} needs a key: /${q.route}/<key>`);
    const contributed = handler ? undefined : this.deps.resolver?.(args.path);
    if (!handler && !contributed) return refused(`Unknown query path: ${q.route}`, true);
    const answered = (answer: QueryAnswer): QueryOutcome => ({ code: 0, log: '', info: answer.info ?? '', text: answer.text ?? null, key: answer.key ?? key, height, noValueByte: false });
    const failed = (err: unknown) => refused(err instanceof QueryPathError ? err.message : `${q.route} failed: ${err instanceof Error ? err.message : String(err)}`);
    let answer: QueryAnswer | PromiseLike<QueryAnswer>;
    try {
      answer = handler ? handler(q, key) : contributed!.definition.handler(contributed!.query, { signal: args.signal });
    } catch (err) {
      return failed(err);
    }
    return isPromiseLike(answer) ? Promise.resolve(answer).then(answered, failed) : answered(answer);
  }

  /**
   * The engine's contract listing scans `keys('')` for metadata keys; this reader answers that
   * scan from a per-height cache of just those keys instead of every key in state.
   */
  private contractIndex(reader: StateReader): StateReader {
    const height = this.deps.state.height;
    if (this.contractKeys?.height !== height) {
      const keys = this.deps.state.keys('').filter((k) => /^[^.]+\.__(source|xian_ir_v1)__$/.test(k));
      this.contractKeys = { height, keys };
    }
    const keys = this.contractKeys.keys;
    return { get: (key) => reader.get(key), keys: (prefix) => (prefix === '' ? keys : reader.keys(prefix)) };
  }
}

/** An answer before it is encoded for the wire or handed out decoded. */
interface QueryOutcome {
  code: number;
  log: string;
  info: string;
  /** The value's UTF-8 text; null when there is none. */
  text: string | null;
  key: string | null;
  /** The committed height when the query was asked. */
  height: number;
  /** An unknown route: CometBFT apps answer the single zero byte (`AA==`) as the value. */
  noValueByte: boolean;
}

/** A new object of strings, numbers and null per call: the in-process client hands it out without a defensive copy (devnet-chain-rpc.ts FRESH_RESULTS). */
function wireResponse(o: QueryOutcome): ResponseQuery {
  return {
    code: o.code,
    log: o.log,
    info: o.info,
    index: '0',
    key: o.key ? Buffer.from(o.key, 'utf8').toString('base64') : null,
    value: o.noValueByte ? 'AA==' : o.text === null ? null : Buffer.from(o.text, 'utf8').toString('base64'),
    proofOps: null,
    height: String(o.height),
    codespace: '',
  };
}

/** What `decodeAbciQuery(wireResponse(o))` gives: texts as UTF-8 carries them, an empty value as none. */
function decodedResponse(o: QueryOutcome): DecodedAbciQuery {
  return decodedAbciQuery({
    code: o.code,
    log: o.log,
    info: o.info,
    key: o.key ? utf8RoundTrip(o.key) : '',
    height: String(o.height),
    codespace: '',
    valueText: o.noValueByte || o.text === null || o.text === '' ? null : utf8RoundTrip(o.text),
  });
}

/** A lone surrogate has no UTF-8 form: encoding replaces it with U+FFFD, as the wire would. */
function utf8RoundTrip(text: string): string {
  return /[\uD800-\uDFFF]/.test(text) ? Buffer.from(text, 'utf8').toString('utf8') : text;
}

function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** Python `int(text)`: optional sign and surrounding whitespace, digits (underscores between digits allowed). */
export function pythonInt(text: string | undefined, what: string): number {
  const t = (text ?? '').trim();
  if (!/^[+-]?\d+(_\d+)*$/.test(t)) throw new QueryPathError(`invalid literal for int() with base 10: '${text ?? ''}' (${what})`);
  return Number(t.replaceAll('_', ''));
}

function contractListOptions(params: Record<string, string>) {
  const int = (v: string | undefined) => (v !== undefined && /^\s*[+-]?\d+\s*$/.test(v) ? Number(v) : undefined);
  return { limit: int(params['limit']), offset: int(params['offset']), sort: params['sort'], order: params['order'] };
}
