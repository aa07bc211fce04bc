import { ChainDatetime, type ExecTxResult, executionHash, type SignedTransaction } from 'chainhost/chain';
import type { BlockEnv, ExecuteOptions, ExecutionOutcome, SignedTx, StateReader } from '../engine/types.js';
import { committedNonce } from './check-tx.js';
import { executionOutput, execTxResult, rejectedTxResult } from './execution-output.js';
import { decodeAndValidateNative } from './native-tx-validator.js';
import { BlockOverlay, DecodingStateReader, encodeStateText } from './state-reader.js';
import type { TextStateReader } from './state-store.js';

/**
 * FinalizeBlock (transactions.md §7): every transaction is statically re-validated, nonces are
 * checked sequentially per sender from the committed nonce (mempool reservations play no
 * part), valid ones run through the engine over the block's pending writes, refused ones get
 * code 1 and `{"error": "<message>"}`. Executed transactions — status 0 or 1 — consume their
 * nonce (the engine writes `__n.<sender>:`).
 *
 * In three steps, so that the engine can run in the block-execution worker thread while the
 * node's event loop keeps answering: `planBlock` (the checks — which transactions execute does
 * not depend on what they do, since every executed one consumes its nonce and no contract can
 * write a nonce key), `executePlanned` (the engine and the encoding of each outcome, over the
 * block's pending writes), `applyExecutions` (the node's overlay, in block order).
 */
export interface TxExecutor {
  execute(tx: SignedTx, env: BlockEnv, state: StateReader, options?: ExecuteOptions): ExecutionOutcome;
  /** The transaction as a failure charged `chiUsed` (fee and nonce written), for an exception outside the engine's own handling. */
  failed(tx: SignedTx, state: StateReader, chiUsed: number, err: unknown): ExecutionOutcome;
}

export interface BlockTx {
  raw: Buffer;
  /** Uppercase CometBFT hash. */
  hash: string;
  /** The CheckTx decode of these exact bytes, when this node admitted them (saves a second signature check). */
  checked?: SignedTransaction;
}

export interface TxOutcome {
  result: ExecTxResult;
  /** The validated tx when it was executed (status 0 or 1), else undefined. */
  tx?: SignedTransaction;
}

/** A transaction that passed the block's checks and runs in the engine. */
export interface PlannedTx {
  /** Its index in the block. */
  index: number;
  tx: SignedTx;
  /** The execution hash of the output (`b_meta` included). */
  executionHash: string;
}

export interface BlockPlan {
  /** Transactions in the block. */
  count: number;
  /** Per block index: the refusal for refused txs, undefined for executed ones. */
  refused: Array<ExecTxResult | undefined>;
  /** Per block index: the validated tx of executed ones. */
  validated: Array<SignedTransaction | undefined>;
  planned: PlannedTx[];
}

/** What one executed transaction leaves: its status, its state writes as stored texts (nonce last) and its output. */
export interface TxExecution {
  status: 0 | 1;
  writes: Array<[string, string | null]>;
  output: ReturnType<typeof executionOutput>;
}

export interface PlanInput {
  chainId: string;
  maxTxBytes: number;
  /** Committed state (the nonces before the block). */
  state: TextStateReader;
  env: BlockEnv;
  txs: readonly BlockTx[];
}

export function planBlock(input: PlanInput): BlockPlan {
  const plan: BlockPlan = { count: input.txs.length, refused: [], validated: [], planned: [] };
  const lastNonce = new Map<string, bigint>();
  input.txs.forEach((btx, index) => {
    let tx: SignedTransaction;
    try {
      tx = btx.checked ?? decodeAndValidateNative(btx.raw, { chainId: input.chainId, maxTxBytes: input.maxTxBytes }).tx;
    } catch (err) {
      // finalize_block.py: every static refusal (size, decode, validation) is a decoding error.
      const message = err instanceof Error ? err.message : String(err);
      plan.refused[index] = rejectedTxResult(`Error decoding transaction: ${message}`);
      return;
    }
    const sender = tx.payload.sender;
    let last = lastNonce.get(sender);
    if (last === undefined) {
      const committed = committedNonce(input.state, sender);
      last = committed === undefined ? -1n : BigInt(committed);
    }
    const expected = last + 1n;
    if (BigInt(tx.payload.nonce) !== expected) {
      plan.refused[index] = rejectedTxResult(`Invalid transaction in block: Transaction nonce is invalid. Expected ${expected}, got ${tx.payload.nonce}`);
      return;
    }
    lastNonce.set(sender, expected);
    plan.validated[index] = tx;
    const hash = executionHash(tx, { chain_id: input.env.chainId, hash: input.env.hash, height: input.env.height, nanos: input.env.nanos });
    plan.planned.push({ index, tx: toEngineTx(tx, btx.raw), executionHash: hash });
  });
  return plan;
}

/**
 * Runs planned transactions in order over `overlay` (the block's pending writes, which it
 * extends). Any failure ends as a charged receipt: the engine answers every contract failure
 * with an outcome, and an outcome that cannot be encoded becomes a failure charged what it used.
 */
export function executePlanned(
  executor: TxExecutor, overlay: BlockOverlay, env: BlockEnv, planned: readonly PlannedTx[], time: (scope: string, ms: number) => void = () => {},
): TxExecution[] {
  const reader = new DecodingStateReader(overlay);
  return planned.map((p) => {
    const started = performance.now();
    let outcome: ExecutionOutcome;
    try {
      outcome = executor.execute(p.tx, env, reader);
    } catch (err) {
      // Should the engine throw all the same, the transaction still fails charged (its whole
      // chi_supplied: what it ran is unknown).
      outcome = executor.failed(p.tx, reader, p.tx.payload.chi_supplied, err);
    }
    time('tx_execute', performance.now() - started);
    const outputStarted = performance.now();
    let execution: TxExecution;
    try {
      execution = encodeExecution(outcome, p);
    } catch (err) {
      // A value the node cannot encode (result, write or event): the run fails, charged what it used.
      execution = encodeExecution(executor.failed(p.tx, reader, outcome.chiUsed, err), p);
    }
    for (const [key, text] of execution.writes) overlay.set(key, text);
    time('tx_process_output', performance.now() - outputStarted);
    time('tx_process_total', performance.now() - started);
    return execution;
  });
}

/** Every text the outcome leaves, made before any is applied; executed (status 0 or 1) consumes the nonce. */
export function encodeExecution(outcome: ExecutionOutcome, p: PlannedTx): TxExecution {
  const writes = outcome.writes.map((w) => [w.key, w.value === null ? null : encodeStateText(w.value)] as [string, string | null]);
  // The engine writes the nonce too; this makes it certain.
  writes.push([`__n.${p.tx.payload.sender}:`, encodeStateText(BigInt(p.tx.payload.nonce))]);
  return { status: outcome.status, writes, output: executionOutput({ outcome, executionHash: p.executionHash }) };
}

/** The block's outcomes in block order, with every execution's writes applied to `overlay`. */
export function applyExecutions(plan: BlockPlan, executions: readonly TxExecution[], overlay: BlockOverlay): TxOutcome[] {
  const outcomes = new Array<TxOutcome>(plan.count);
  plan.refused.forEach((result, index) => { if (result) outcomes[index] = { result }; });
  plan.planned.forEach((p, i) => {
    const execution = executions[i]!;
    for (const [key, text] of execution.writes) overlay.set(key, text);
    outcomes[p.index] = { result: execTxResult(execution.status, execution.output.text, execution.output.events), tx: plan.validated[p.index]! };
  });
  return outcomes;
}

/** The engine's view of a validated tx: ints as numbers (nonce and chi passed CheckTx's bounds). */
export function toEngineTx(tx: SignedTransaction, raw: Uint8Array): SignedTx {
  const p = tx.payload;
  return {
    payload: {
      chain_id: p.chain_id, chi_supplied: Number(p.chi_supplied), contract: p.contract, function: p.function,
      kwargs: p.kwargs as Record<string, unknown>, nonce: Number(p.nonce), sender: p.sender,
    },
    signature: tx.metadata.signature,
    rawHex: Buffer.from(raw).toString('latin1').replace(/\s+/g, '').toLowerCase(),
  };
}

export function blockEnv(chainId: string, height: number, hashLower: string, nanos: bigint): BlockEnv {
  return { chainId, height: BigInt(height), hash: hashLower, nanos, now: ChainDatetime.fromNanos(nanos) };
}
