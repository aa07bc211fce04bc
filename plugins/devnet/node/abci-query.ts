import type { ResponseQuery } from '../../../core/chain/rpc/cometbft-types.js';
import { parseQueryPath, QueryPathError, type ParsedQueryPath, type QueryAnswer, type QueryPathDefinition } from '../../../core/query/query-path.js';
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
 * Unknown route → code 1, value `AA==`, `Unknown query path: <route>`; a handler failure →
 * code 1 with no value, and (chainhost's choice) a short reason in `log`. The response
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

  async query(args: AbciQueryArgs): Promise<ResponseQuery> {
    const committed = this.deps.state.height;
    // A new object of strings, numbers and null per call: the in-process client hands it out
    // without a defensive copy (devnet-chain-rpc.ts FRESH_RESULTS).
    const response = (code: number, answer: Partial<QueryAnswer> & { log?: string; rawValue?: string | null }, key: string | null): ResponseQuery => ({
      code,
      log: answer.log ?? '',
      info: answer.info ?? '',
      index: '0',
      key: key ? Buffer.from(key, 'utf8').toString('base64') : null,
      value: answer.rawValue !== undefined ? answer.rawValue : answer.text === null || answer.text === undefined ? null : Buffer.from(answer.text, 'utf8').toString('base64'),
      proofOps: null,
      height: String(committed),
      codespace: '',
    });
    if (args.prove) return response(1, { log: 'Query proofs are not supported; send prove=false' }, null);
    const h = args.height ?? 0;
    if (h !== 0 && h !== committed) {
      return response(1, { log: `Unsupported query height ${h}; only 0 or the latest committed height ${committed} can be queried` }, null);
    }
    const q = parseQueryPath(args.path);
    const key = q.parts[0] ?? '';
    const handler = Object.prototype.hasOwnProperty.call(this.routes, q.route) ? this.routes[q.route] : undefined;
    const contributed = handler ? undefined : this.deps.resolver?.(args.path);
    if (!handler && !contributed) return response(1, { log: `Unknown query path: ${q.route}`, rawValue: 'AA==' }, null);
    try {
      const answer = handler ? await handler(q, key) : await contributed!.definition.handler(contributed!.query, { signal: args.signal });
      return response(0, answer, answer.key ?? key);
    } catch (err) {
      return response(1, { log: err instanceof QueryPathError ? err.message : `${q.route} failed: ${err instanceof Error ? err.message : String(err)}` }, null);
    }
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
