import { ChainDatetime, chainRecord, type ChainRecord, type ChainValue, isChainRecord, sha3Hex } from 'chainhost/chain';
import type { QueryAnswer } from 'chainhost/plugin';
import type { Executor } from '../engine/executor.js';
import type { StateReader } from '../engine/types.js';
import { WriteBuffer } from '../engine/write-buffer.js';
import { answerOf } from './query-answer.js';

/**
 * The `validators_*` core paths (abci-query.md §4). Views run the `validators` contract
 * read-only and unmetered over a throwaway write buffer (sender = the key or `__query__`);
 * votes are read straight from its state. The devnet's genesis has no `validators` contract,
 * so there the views answer null and the lists are empty — as upstream answers without one.
 */
export interface ValidatorQueryContext {
  reader: StateReader;
  executor: Executor;
  chainId: string;
  height: number;
  /** Latest block time (ns) and lowercase hash, when there is a block. */
  timeNanos: bigint;
  blockHash: string | undefined;
}

type Route = (ctx: ValidatorQueryContext, key: string, params: Record<string, string>) => QueryAnswer;

const V = 'validators';

function view(ctx: ValidatorQueryContext, fn: string, kwargs: Record<string, ChainValue> = {}, sender = '__query__'): ChainValue | null {
  if (typeof ctx.reader.get(`${V}.__source__`) !== 'string') return null;
  const env = {
    chainId: ctx.chainId, height: BigInt(ctx.height), nanos: ctx.timeNanos, now: ChainDatetime.fromNanos(ctx.timeNanos),
    hash: ctx.blockHash ?? sha3Hex(`query:block:${ctx.chainId}:${ctx.height}:${ctx.timeNanos}`),
  };
  const r = ctx.executor.run({ sender, contract: V, function: fn, kwargs: chainRecord(Object.entries(kwargs)), chiBudget: 0 }, env, new WriteBuffer(ctx.reader));
  return r.status === 0 ? (r.result ?? null) : null;
}

function withField(record: ChainValue | undefined, name: string, value: ChainValue): ChainRecord | null {
  if (!isChainRecord(record)) return null;
  return chainRecord([...Object.entries(record), [name, value]]);
}

function voteRecord(ctx: ValidatorQueryContext, id: bigint): ChainRecord | null {
  return withField(ctx.reader.get(`${V}.votes:${id}`), 'proposal_id', id);
}

function voteId(key: string): bigint {
  if (!/^\s*[+-]?\d+\s*$/.test(key)) throw new Error(`invalid literal for int() with base 10: '${key}'`);
  return BigInt(key.trim());
}

export const VALIDATOR_ROUTES: Record<string, Route> = {
  validators_policy: (ctx) => answerOf(view(ctx, 'get_policy_config')),
  validators_active: (ctx) => answerOf(view(ctx, 'get_active_validators')),
  validators_candidates: (ctx) => answerOf(view(ctx, 'get_pending_candidates')),
  validators_validator: (ctx, account) => answerOf(view(ctx, 'get_validator', { account }, account || '__query__')),
  validators_pending_unbonds: (ctx, account) => {
    const ids = view(ctx, 'get_pending_unbond_ids', { owner: account }, account || '__query__');
    const out: ChainValue[] = [];
    for (const id of Array.isArray(ids) ? ids : []) {
      const rec = withField(view(ctx, 'get_pending_unbond', { unbond_id: id }, account || '__query__') ?? undefined, 'unbond_id', id);
      if (rec) out.push(rec);
    }
    return answerOf(out);
  },
  validators_open_votes: (ctx, _key, params) => {
    const limit = Math.min(1000, Math.max(0, Number(/^\d+$/.test(params['limit'] ?? '') ? params['limit'] : 100)));
    const offset = Math.max(0, Number(/^\d+$/.test(params['offset'] ?? '') ? params['offset'] : 0));
    const total = ctx.reader.get(`${V}.total_votes`);
    const open: ChainValue[] = [];
    for (let id = typeof total === 'bigint' ? total : 0n; id >= 1n && open.length < offset + limit; id--) {
      const rec = voteRecord(ctx, id);
      if (rec && rec['status'] === 'pending' && rec['finalized'] !== true) open.push(rec);
    }
    return answerOf(open.slice(offset));
  },
  validators_vote: (ctx, id) => answerOf(voteRecord(ctx, voteId(id))),
  validators_vote_records: (ctx, key) => {
    const id = voteId(key);
    const vote = voteRecord(ctx, id);
    const voters = vote ? (vote['member_snapshot'] ?? vote['voters']) : null;
    const out: ChainValue[] = [];
    for (const voter of Array.isArray(voters) ? voters : []) {
      if (typeof voter !== 'string') continue;
      out.push(chainRecord([
        ['proposal_id', id], ['voter', voter],
        ['vote', ctx.reader.get(`${V}.vote_records:${id}:${voter}`) ?? null],
        ['weight', ctx.reader.get(`${V}.vote_weights:${id}:${voter}`) ?? 0n],
      ]));
    }
    return answerOf(out);
  },
};
