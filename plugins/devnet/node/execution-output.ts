import { type AbciEvent, abciJsonText, ChainDecimal, chainRecord, type ChainRecord, type ChainValue, type EventAttribute, exceptionRepr, type ExecTxResult, isChainRecord, pythonStr, safeRepr, safeReprText } from 'chainhost/chain';
import type { ContractEvent, ExecutionOutcome, RewardRecord } from '../engine/types.js';
import { compareKeys } from './key-order.js';

/**
 * What an executed transaction leaves in its `ExecTxResult` (cometbft-rpc.md §6-7): `data` =
 * the execution-output JSON (ABCI normalisation, keys sorted: chi_used, events, hash, result,
 * reward_records, rewards, state, status) and, for status 0 only, the `StateChange` event and
 * one event per contract event. Transactions rejected inside the block get code 1 and
 * `{"error": "<message>"}` written with Python's default separators.
 */
const REWARD_BUCKETS = ['validator_reward', 'delegator_reward', 'foundation_reward', 'developer_reward'] as const;

export function execTxResult(code: number, dataText: string, events: AbciEvent[]): ExecTxResult {
  return { code, data: Buffer.from(dataText, 'utf8').toString('base64'), log: '', info: '', gas_wanted: '0', gas_used: '0', events, codespace: '' };
}

/** A transaction the block refused before execution. */
export function rejectedTxResult(message: string): ExecTxResult {
  return execTxResult(1, `{"error": ${pythonJsonString(message)}}`, []);
}

/** Python `json.dumps` of a string (ensure_ascii). */
function pythonJsonString(s: string): string {
  return JSON.stringify(s).replace(/[\u007f-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

/**
 * The on-chain `result`: Python repr of the return value, or of the exception on failure. The
 * engine hands failures as `error` text (an exception repr such as `AssertionError('…')`) or a
 * plain message in `result`.
 */
export function resultRepr(outcome: ExecutionOutcome): string {
  if (outcome.status === 0) return safeRepr(outcome.result ?? null);
  const message = outcome.error ?? (typeof outcome.result === 'string' ? outcome.result : safeRepr(outcome.result ?? null));
  return safeReprText(outcome.errorClass ? exceptionRepr(outcome.errorClass, message) : message);
}

export interface ExecutionOutputInput {
  outcome: ExecutionOutcome;
  executionHash: string;
}

const NONCE_PREFIX = '__n.';

/** The output's `state`: the writes without the nonce key, last value per key, sorted by key. */
function outputState(outcome: ExecutionOutcome): Array<{ key: string; value: ChainValue | null }> {
  if (outcome.state) return outcome.state;
  const last = new Map<string, ChainValue | null>();
  for (const w of outcome.writes) if (!w.key.startsWith(NONCE_PREFIX)) last.set(w.key, w.value);
  return [...last].map(([key, value]) => ({ key, value })).sort((a, b) => compareKeys(a.key, b.key));
}

export function executionOutput(input: ExecutionOutputInput): { text: string; events: AbciEvent[] } {
  const { outcome } = input;
  const state = outputState(outcome);
  const success = outcome.status === 0;
  const rewards = success ? rewardBuckets(outcome) : null;
  const output = chainRecord([
    ['chi_used', BigInt(outcome.chiUsed)],
    ['events', success ? outcome.events.map(eventValue) : []],
    ['hash', input.executionHash],
    ['result', resultRepr(outcome)],
    ['reward_records', rewards ? outcome.rewards.map(rewardRecordValue) : null],
    ['rewards', rewards],
    ['state', state.map((w) => chainRecord([['key', w.key], ['value', w.value]]))],
    ['status', BigInt(outcome.status)],
  ]);
  const events: AbciEvent[] = [];
  if (success) {
    if (state.length > 0) {
      events.push({
        type: 'StateChange',
        attributes: state.map((w) => attr(w.key.replaceAll('.', '_').replaceAll(':', '__'), pythonStr(w.value), false)),
      });
    }
    for (const e of outcome.events) events.push(contractEvent(e));
  }
  return { text: abciJsonText(output), events };
}

function eventValue(e: ContractEvent): ChainRecord {
  return chainRecord([
    // The event's own records: the output is only written from them, never changed.
    ['caller', e.caller], ['contract', e.contract], ['data', e.data],
    ['data_indexed', e.data_indexed], ['event', e.event], ['signer', e.signer],
  ]);
}

function contractEvent(e: ContractEvent): AbciEvent {
  const attributes: EventAttribute[] = [attr('contract', e.contract, true), attr('signer', e.signer, true), attr('caller', e.caller, true)];
  for (const [k, v] of Object.entries(e.data_indexed)) attributes.push(attr(k, eventValueText(v), true));
  for (const [k, v] of Object.entries(e.data)) attributes.push(attr(k, eventValueText(v), false));
  return { type: e.event || 'ContractEvent', attributes };
}

/** `str(stringify_decimals(v))`: decimals plain, everything else Python `str`. */
function eventValueText(v: ChainValue): string {
  return pythonStr(stringifyDecimals(v));
}

function stringifyDecimals(v: ChainValue): ChainValue {
  if (v instanceof ChainDecimal) return v.toString();
  if (Array.isArray(v)) return v.map(stringifyDecimals);
  if (isChainRecord(v)) return chainRecord(Object.entries(v).map(([k, x]) => [k, stringifyDecimals(x)]));
  return v;
}

function attr(key: string, value: string, index: boolean): EventAttribute {
  return { key, value, index };
}

function rewardBuckets(outcome: ExecutionOutcome): ChainRecord | null {
  if (outcome.rewardBuckets !== undefined) {
    const b = outcome.rewardBuckets;
    return b === null ? null : chainRecord(REWARD_BUCKETS.map((name) => [name, chainRecord(b[name])]));
  }
  if (outcome.rewards.length === 0) return null;
  const buckets = chainRecord(REWARD_BUCKETS.map((b) => [b, chainRecord()]));
  for (const r of outcome.rewards) {
    const bucket = (buckets[r.type] ??= chainRecord()) as ChainRecord;
    const prev = bucket[r.recipient];
    bucket[r.recipient] = prev instanceof ChainDecimal ? prev.plus(toDecimal(r.amount)) : toDecimal(r.amount);
  }
  return buckets;
}

function rewardRecordValue(r: RewardRecord): ChainRecord {
  const rec = chainRecord([['type', r.type], ['recipient_key', r.recipient], ['source_contract', r.contract ?? null], ['value', toDecimal(r.amount)]]);
  if (r.validatorKey !== undefined) rec['validator_key'] = r.validatorKey;
  if (r.delegatorKey !== undefined) rec['delegator_key'] = r.delegatorKey;
  return rec;
}

function toDecimal(v: ChainValue): ChainDecimal {
  if (v instanceof ChainDecimal) return v;
  if (typeof v === 'bigint') return ChainDecimal.from(v);
  if (typeof v === 'string') return ChainDecimal.parse(v);
  throw new TypeError(`reward amount must be a number, got ${typeof v}`);
}
