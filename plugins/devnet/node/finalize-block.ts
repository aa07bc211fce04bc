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

export interface FinalizeInput {
  chainId: string;
  maxTxBytes: number;
  executor: TxExecutor;
  state: TextStateReader;
  env: BlockEnv;
  txs: readonly BlockTx[];
  /** Perf hook: scope name and elapsed ms. */
  time?: (scope: string, ms: number) => void;
}

export interface FinalizeOutput {
  outcomes: TxOutcome[];
  overlay: BlockOverlay;
}

export function finalizeTxs(input: FinalizeInput): FinalizeOutput {
  const overlay = new BlockOverlay(input.state);
  const reader = new DecodingStateReader(overlay);
  const time = input.time ?? (() => {});
  const outcomes: TxOutcome[] = [];
  for (const btx of input.txs) {
    const started = performance.now();
    let tx: SignedTransaction;
    try {
      tx = btx.checked ?? decodeAndValidateNative(btx.raw, { chainId: input.chainId, maxTxBytes: input.maxTxBytes }).tx;
    } catch (err) {
      // finalize_block.py: every static refusal (size, decode, validation) is a decoding error.
      const message = err instanceof Error ? err.message : String(err);
      outcomes.push({ result: rejectedTxResult(`Error decoding transaction: ${message}`) });
      continue;
    }
    const committed = committedNonce(overlay, tx.payload.sender);
    const expected = committed === undefined ? 0n : BigInt(committed) + 1n;
    if (BigInt(tx.payload.nonce) !== expected) {
      outcomes.push({ result: rejectedTxResult(`Invalid transaction in block: Transaction nonce is invalid. Expected ${expected}, got ${tx.payload.nonce}`) });
      continue;
    }
    const engineTx = toEngineTx(tx, btx.raw);
    let outcome: ExecutionOutcome;
    const executeStarted = performance.now();
    try {
      outcome = input.executor.execute(engineTx, input.env, reader);
    } catch (err) {
      // The engine answers every failure with an outcome; should it throw all the same, the
      // transaction still fails charged (its whole chi_supplied: what it ran is unknown).
      outcome = input.executor.failed(engineTx, reader, engineTx.payload.chi_supplied, err);
    }
    time('tx_execute', performance.now() - executeStarted);
    const outputStarted = performance.now();
    const hash = executionHash(tx, {
      chain_id: input.env.chainId, hash: input.env.hash, height: input.env.height, nanos: input.env.nanos,
    });
    let encoded: EncodedOutcome;
    try {
      encoded = encodeOutcome(outcome, hash);
    } catch (err) {
      // A value the node cannot encode (result, write or event): the run fails, charged what it used.
      outcome = input.executor.failed(engineTx, reader, outcome.chiUsed, err);
      encoded = encodeOutcome(outcome, hash);
    }
    for (const [key, text] of encoded.writes) overlay.set(key, text);
    // Executed (status 0 or 1) consumes the nonce; the engine writes it too, this makes it certain.
    overlay.set(`__n.${tx.payload.sender}:`, encodeStateText(BigInt(tx.payload.nonce)));
    const output = encoded.output;
    outcomes.push({ result: execTxResult(outcome.status, output.text, output.events), tx });
    time('tx_process_output', performance.now() - outputStarted);
    time('tx_process_total', performance.now() - started);
  }
  return { outcomes, overlay };
}

interface EncodedOutcome {
  writes: Array<[string, string | null]>;
  output: ReturnType<typeof executionOutput>;
}

/** Every text the outcome leaves (state writes, the execution output), made before any is applied. */
function encodeOutcome(outcome: ExecutionOutcome, executionHash: string): EncodedOutcome {
  const writes = outcome.writes.map((w) => [w.key, w.value === null ? null : encodeStateText(w.value)] as [string, string | null]);
  return { writes, output: executionOutput({ outcome, executionHash }) };
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
