import type { JsonObject, JsonValue } from 'chainhost/chain';

/**
 * What a transaction did, in words, from its call (contract, function, kwargs) and its events —
 * the sentence an explorer row and page lead with ("Transfer 12.5 CHAIN from A to B", "Swap 100
 * TST for 9.87 CHAIN on pair #2"). Pure and data-driven: the event shapes are the chain's
 * standard ones (XSC001 `Transfer`/`Approve`, the DEX pair's `Swap`/`Mint`/`Burn`), so any
 * token or pair contract that emits them is described, not just the genesis ones. The parts
 * keep amounts exact and name tokens by contract; the renderer links them and shows symbols.
 */
export type Part =
  | { kind: 'text'; text: string }
  | { kind: 'amount'; value: JsonValue; token: string | null }
  | { kind: 'address'; address: string }
  | { kind: 'contract'; name: string }
  | { kind: 'pair'; id: number }
  | { kind: 'error'; text: string };

export interface TxFacts {
  contract: JsonValue | undefined;
  function: JsonValue | undefined;
  kwargs: JsonValue | undefined;
  sender: JsonValue | undefined;
  /** null when the outcome is not known (a row whose result was not read). */
  ok: boolean | null;
  /** The failure text (the exception repr in `result`, or a block-level rejection). */
  error?: JsonValue;
  /** The execution output's events; absent when they were not read (then the call alone is described). */
  events?: JsonValue[];
}

/** Token contracts of a DEX pair, when the page could read them. */
export type PairTokens = ReadonlyMap<number, readonly [string, string]>;

const MAX_LISTED = 3;

const t = (text: string): Part => ({ kind: 'text', text });
const amountOf = (value: JsonValue | undefined, token: string | null): Part => ({ kind: 'amount', value: value ?? null, token });
const who = (value: JsonValue | undefined): Part => (typeof value === 'string' && value !== '' ? { kind: 'address', address: value } : t('—'));

function obj(value: JsonValue | undefined): JsonObject {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : {};
}

/** An event's fields, indexed and not, in one object. */
export function eventFields(event: JsonValue): JsonObject {
  const e = obj(event);
  return { ...obj(parseJson(e.data_indexed)), ...obj(parseJson(e.data)) };
}

function parseJson(value: JsonValue | undefined): JsonValue | undefined {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as JsonValue;
  } catch {
    return value;
  }
}

/** A pair id field (an int, or its text). */
function pairId(value: JsonValue | undefined): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^[0-9]{1,15}$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

function isPositive(value: JsonValue | undefined): boolean {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : typeof obj(value).__fixed__ === 'string' ? String(obj(value).__fixed__) : '';
  return /^[0-9.eE+]+$/.test(text) && /[1-9]/.test(text.replace(/[eE].*$/, ''));
}

/** The DEX pairs the events of a transaction mention (to read their tokens before describing). */
export function pairIdsOf(events: JsonValue[] | undefined): number[] {
  const ids = new Set<number>();
  for (const e of events ?? []) {
    const ev = obj(e);
    if (ev.event === 'Swap' || ev.event === 'Mint' || ev.event === 'Burn') {
      const id = pairId(eventFields(e).pair);
      if (id !== null) ids.add(id);
    }
  }
  return [...ids];
}

/** The token contracts a description names (to read their symbols before rendering). */
export function tokensOf(parts: Part[]): string[] {
  return [...new Set(parts.flatMap((p) => (p.kind === 'amount' && p.token ? [p.token] : [])))];
}

export function describeTx(tx: TxFacts, pairs: PairTokens = new Map()): Part[] {
  const contract = typeof tx.contract === 'string' ? tx.contract : '?';
  const fn = typeof tx.function === 'string' ? tx.function : '?';
  const kwargs = obj(tx.kwargs);
  if (tx.ok === false) {
    // A deployment that failed created no contract: its name is text, not a link to a page that would answer 404.
    const intent = contract === 'submission' && fn === 'submit_contract' && typeof kwargs.name === 'string'
      ? [t(`Deploy ${kwargs.name}`)]
      : describeCall(contract, fn, kwargs, tx.sender);
    const reason = tx.error === undefined || tx.error === null ? 'no reason given' : typeof tx.error === 'string' ? tx.error : JSON.stringify(tx.error);
    return [t('Failed: '), ...intent, t(' — '), { kind: 'error', text: reason }];
  }
  if (contract === 'submission' && fn === 'submit_contract') {
    return typeof kwargs.name === 'string' ? [t('Deploy '), { kind: 'contract', name: kwargs.name }] : [t('Deploy a contract')];
  }
  const fromEvents = tx.events ? describeEvents(tx.events, pairs) : null;
  return fromEvents ?? describeCall(contract, fn, kwargs, tx.sender);
}

/** The sentence the events make, or null when none of them is a standard one. */
function describeEvents(events: JsonValue[], pairs: PairTokens): Part[] | null {
  const named = (name: string) => events.filter((e) => obj(e).event === name);
  const swaps = named('Swap');
  if (swaps.length) return describeSwaps(swaps, pairs);
  const mints = named('Mint').filter((e) => pairId(eventFields(e).pair) !== null);
  const burns = named('Burn').filter((e) => pairId(eventFields(e).pair) !== null);
  if (mints.length || burns.length) {
    const parts: Part[] = [];
    for (const e of [...mints, ...burns]) {
      const f = eventFields(e);
      const id = pairId(f.pair)!;
      const tokens = pairs.get(id);
      if (parts.length) parts.push(t('; '));
      parts.push(t(obj(e).event === 'Mint' ? 'Add liquidity: ' : 'Remove liquidity: '), amountOf(f.amount0, tokens?.[0] ?? null), t(' and '),
        amountOf(f.amount1, tokens?.[1] ?? null), t(obj(e).event === 'Mint' ? ' to pair ' : ' from pair '), { kind: 'pair', id });
    }
    return parts;
  }
  const transfers = named('Transfer');
  const approvals = named('Approve');
  if (!transfers.length && !approvals.length) return null;
  const sentences: Part[][] = [
    ...transfers.map((e) => {
      const f = eventFields(e);
      return [t('Transfer '), amountOf(f.amount, contractOf(e)), t(' from '), who(f.from), t(' to '), who(f.to)];
    }),
    ...approvals.map((e) => {
      const f = eventFields(e);
      return [t('Approve '), who(f.to), t(' to spend '), amountOf(f.amount, contractOf(e))];
    }),
  ];
  return joinSentences(sentences);
}

function contractOf(event: JsonValue): string | null {
  const c = obj(event).contract;
  return typeof c === 'string' ? c : null;
}

/** One swap, or a route over several pairs: what went in first and what came out last. */
function describeSwaps(swaps: JsonValue[], pairs: PairTokens): Part[] {
  const side = (e: JsonValue) => {
    const f = eventFields(e);
    const id = pairId(f.pair);
    const tokens = id === null ? undefined : pairs.get(id);
    const zeroIn = isPositive(f.amount0In);
    return {
      id,
      in: amountOf(zeroIn ? f.amount0In : f.amount1In, tokens ? tokens[zeroIn ? 0 : 1] : null),
      out: amountOf(zeroIn ? f.amount1Out : f.amount0Out, tokens ? tokens[zeroIn ? 1 : 0] : null),
    };
  };
  const first = side(swaps[0]!);
  const last = side(swaps[swaps.length - 1]!);
  const route: Part[] = [];
  swaps.forEach((e, i) => {
    const id = side(e).id;
    if (i) route.push(t(' → '));
    route.push(id === null ? t('?') : { kind: 'pair', id });
  });
  return [t('Swap '), first.in, t(' for '), last.out, t(swaps.length > 1 ? ' via pairs ' : ' on pair '), ...route];
}

/** Without events (not read, or none emitted): the call itself, in words where it is a standard one. */
function describeCall(contract: string, fn: string, kwargs: JsonObject, sender: JsonValue | undefined): Part[] {
  if (fn === 'transfer' && 'amount' in kwargs && 'to' in kwargs) return [t('Transfer '), amountOf(kwargs.amount, contract), t(' from '), who(sender), t(' to '), who(kwargs.to)];
  if (fn === 'approve' && 'amount' in kwargs && 'to' in kwargs) return [t('Approve '), who(kwargs.to), t(' to spend '), amountOf(kwargs.amount, contract)];
  if (fn === 'transfer_from' && 'amount' in kwargs && 'to' in kwargs) {
    return [t('Transfer '), amountOf(kwargs.amount, contract), t(' from '), who(kwargs.main_account), t(' to '), who(kwargs.to)];
  }
  if (contract === 'submission' && fn === 'submit_contract' && typeof kwargs.name === 'string') return [t('Deploy '), { kind: 'contract', name: kwargs.name }];
  const args = Object.keys(kwargs).sort();
  const parts: Part[] = [t('Call '), { kind: 'contract', name: contract }, t(`.${fn}(`)];
  args.slice(0, 4).forEach((k, i) => {
    parts.push(t(`${i ? ', ' : ''}${k}=`));
    const v = kwargs[k];
    if (isAmountLike(v)) parts.push(amountOf(v, null));
    else parts.push(t(shortText(v)));
  });
  if (args.length > 4) parts.push(t(', …'));
  parts.push(t(')'));
  return parts;
}

function isAmountLike(v: JsonValue | undefined): boolean {
  return typeof v === 'number' || typeof obj(v).__fixed__ === 'string' || typeof obj(v).__big_int__ === 'string';
}

function shortText(v: JsonValue | undefined): string {
  const s = typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v) ?? 'None';
  return s.length > 40 ? `${s.slice(0, 37)}…` : s;
}

function joinSentences(sentences: Part[][]): Part[] {
  const parts: Part[] = [];
  sentences.slice(0, MAX_LISTED).forEach((s, i) => {
    if (i) parts.push(t('; '));
    parts.push(...s);
  });
  if (sentences.length > MAX_LISTED) parts.push(t(`; and ${sentences.length - MAX_LISTED} more`));
  return parts;
}
