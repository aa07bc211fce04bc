import { createHash } from 'node:crypto';
import { ChainDecimal, type ChainValue, decodeValue, type SignedTransaction, TransactionValidationError } from 'chainhost/chain';
import { decodeAndValidateNative } from './native-tx-validator.js';
import type { NodeConfig } from './node-config.js';
import { NonceError, type NonceReservations } from './nonce-reservations.js';
import { decodeStateText } from './state-reader.js';
import type { TextStateReader } from './state-store.js';

/**
 * Mempool admission (transactions.md §6), in the node's order: static decode and validation
 * (the native validator of the production image, native-tx-validator.ts),
 * the fee policy's balance rule, then — only if everything else passed — the nonce
 * reservation. A refusal is `code 1` with `log = "TransactionException: <message>"`.
 */
export interface CheckTxResult {
  code: 0 | 1;
  log: string;
  /** Uppercase CometBFT hash (SHA-256 of the raw bytes). */
  hash: string;
  /** Lowercase SHA-256 of the raw bytes: the reservation key. */
  sha256: string;
  tx?: SignedTransaction;
}

export const DEFAULT_CHI_RATE = 20n;

export function committedNonce(state: TextStateReader, sender: string): number | undefined {
  const text = state.get(`__n.${sender}:`);
  if (text === undefined) return undefined;
  const v = decodeStateText(text);
  return typeof v === 'bigint' ? Number(v) : v instanceof ChainDecimal ? Number(v.toBigInt()) : undefined;
}

/** `chi_cost.S:value`, 20 when unset or unreadable (CheckTx and the simulator's fallback). */
export function chiRate(state: TextStateReader): ChainDecimal {
  const text = state.get('chi_cost.S:value');
  const v = text === undefined ? undefined : decodeStateText(text);
  const d = asDecimal(v);
  return d && d.gt(0n) ? d : ChainDecimal.from(DEFAULT_CHI_RATE);
}

export function balanceOf(state: TextStateReader, address: string): ChainDecimal {
  const text = state.get(`currency.balances:${address}`);
  return (text === undefined ? undefined : asDecimal(decodeStateText(text))) ?? ChainDecimal.ZERO;
}

function asDecimal(v: ChainValue | undefined): ChainDecimal | undefined {
  if (v instanceof ChainDecimal) return v;
  if (typeof v === 'bigint') return ChainDecimal.from(v);
  return undefined;
}

export interface CheckTxContext {
  chainId: string;
  config: NodeConfig;
  state: TextStateReader;
  reservations: NonceReservations;
}

/** CheckTx; `dryRun` (the `check_tx` RPC) runs every check but reserves nothing. */
export function checkTx(raw: Uint8Array, ctx: CheckTxContext, dryRun = false, sha = sha256Hex(raw)): CheckTxResult {
  const hash = sha.toUpperCase();
  const refuse = (message: string): CheckTxResult => ({ code: 1, log: `TransactionException: ${message}`, hash, sha256: sha });
  let tx: SignedTransaction;
  try {
    tx = decodeAndValidateNative(raw, { chainId: ctx.chainId, maxTxBytes: ctx.config.max_tx_bytes }).tx;
  } catch (err) {
    if (err instanceof TransactionValidationError) return refuse(err.message);
    return refuse(err instanceof Error ? err.message : String(err));
  }
  const feeProblem = feePolicyProblem(tx, ctx);
  if (feeProblem) return refuse(feeProblem);
  const sender = tx.payload.sender;
  const nonce = BigInt(tx.payload.nonce);
  const committed = committedNonce(ctx.state, sender);
  try {
    if (nonce > BigInt(Number.MAX_SAFE_INTEGER)) {
      throw new NonceError(`Transaction nonce is invalid. Expected ${ctx.reservations.nextNonce(sender, committed)}, got ${nonce}`);
    }
    ctx.reservations.reserve(sender, Number(nonce), committed, sha, { dryRun });
  } catch (err) {
    if (err instanceof NonceError) return refuse(err.message);
    throw err;
  }
  return { code: 0, log: '', hash, sha256: sha, tx };
}

/** Step 2: `paid_metered` balance rule (plus the `currency.transfer` reserve) or the `free_metered` cap. */
function feePolicyProblem(tx: SignedTransaction, ctx: CheckTxContext): string | undefined {
  const chiSupplied = BigInt(tx.payload.chi_supplied);
  if (ctx.config.tx_fee_mode === 'free_metered') {
    const max = ctx.config.free_tx_max_chi;
    return chiSupplied > BigInt(max) ? `Transaction chi_supplied exceeds maximum configured limit of ${max}` : undefined;
  }
  const tooFew = 'Transaction sender has too few chi for this transaction';
  const balance = balanceOf(ctx.state, tx.payload.sender);
  const rate = chiRate(ctx.state);
  if (balance.times(rate).lt(ChainDecimal.fromScaled(chiSupplied * ChainDecimal.ONE.scaled))) return tooFew;
  if (tx.payload.contract === 'currency' && tx.payload.function === 'transfer') {
    const amount = transferAmount(tx.payload.kwargs['amount']);
    if (amount && balance.minus(amount).times(rate).div(6n).lt(2n)) return tooFew;
  }
  return undefined;
}

export function sha256Hex(raw: Uint8Array): string {
  return createHash('sha256').update(raw).digest('hex');
}

function transferAmount(wire: unknown): ChainDecimal | undefined {
  if (wire === undefined) return undefined;
  try {
    return asDecimal(decodeValue(wire));
  } catch {
    return undefined;
  }
}
