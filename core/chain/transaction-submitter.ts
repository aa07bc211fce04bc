import { ApiError } from '../errors.js';
import { silentLogger, type Logger } from '../logger.js';
import type { MetricsRegistrar } from '../metrics.js';
import { createToken } from '../tokens.js';
import { intValue, nodeApiError, nodeCall, toolJson } from '../tools/chain-schemas.js';
import { abciDecimal, abciInt, assertAbciOk, QueryPath } from './abci-value.js';
import type { ConfirmOutcome, ConfirmRequest } from '../tools/tool.js';
import { canonicalJson, type JsonObject, type JsonValue } from './canonical-json.js';
import { chainIdGuardFor, type ChainIdGuard } from './chain-id-guard.js';
import { chainSimulatorFor, type ChainSimulator } from './chain-simulator.js';
import { ChainDecimal } from './decimal.js';
import { bytesToHex, sha256, utf8Bytes } from './hashes.js';
import { KeyFormatError, Wallet, type KeySource } from './keys.js';
import type { ChainNode } from './node.js';
import { RpcError } from './rpc/chain-rpc.js';
import { NOBODY_TO_ASK, type SendAdmission, type SendGuard, type SendPreview } from './send-guard.js';
import { coerceKwargsBySignature } from './signature-kwargs.js';
import { simulationRefusalCounter, type CountRefusal } from './simulation-refusals.js';
import { simulationFailureError, type SimulationResponse } from './simulation.js';
import { encodeTransaction, signTransaction, type TxPayload } from './transaction.js';
import { CHI_RATE_KEY, txFee, type TxFee } from './tx-fee.js';
import { TxReceipts, type TxReceipt } from './tx-receipts.js';

/**
 * The one way every submitting tool (wallet sends now, DEX submits later) sends a transaction:
 *
 *   chain id guard → dry run (refuse with the simulated error when it would fail) →
 *   chi = max(ceil(estimate × margin), estimate + floor) → send guards' review (send-guard.ts:
 *   spending policy, asking the user) → per-sender lock { guards' admit, nonce, sign,
 *   broadcast_tx_sync } → CheckTx refusal = 400 with the node's log → wait for the block
 *   (TxReceipts: Tx subscription, with polling as a safety net) → receipt.
 *
 * Chi: the dry run omits the per-byte transaction charge and runs against state that may move
 * before the block (transactions.md §9), so the estimate alone can be short. The default
 * margin 1.1 and floor 10 give `max(ceil(est × 1.1), est + 10)`: +10 % for large calls, at
 * least +10 chi for small ones. Both are configurable (`chiMargin` ≥ 1, exact decimal; `chiFloor`
 * ≥ 0 integer).
 *
 * Nonces: sends from one key are serialised by an async lock around nonce → sign → broadcast,
 * so they reach the node in nonce order. The next nonce is the larger of the node's pending-aware
 * `/get_next_nonce/<address>` and the local reservation (the last accepted nonce + 1, kept for
 * the node's 60 s reservation lifetime), which covers nodes whose answer lags behind CheckTx.
 * Any failed send drops the local reservation; a nonce refusal is retried once with a fresh
 * nonce. The wait for the block happens outside the lock, so concurrent sends pipeline.
 */

export const TransactionSubmitterToken = createToken<TransactionSubmitter>('transaction-submitter');

export interface SubmitterOptions {
  /** CHAIN_ID: goes into every payload; checked against the node's network before signing. */
  chainId: string;
  /** Chi margin factor, ≥ 1 (default "1.1"); exact, as a decimal string or number. */
  chiMargin?: number | string;
  /** Minimum chi added to the estimate (default 10). */
  chiFloor?: number;
  /** How long `wait` waits for the block (default 30 000 ms). */
  waitTimeoutMs?: number;
  /** Polling interval for the transaction while waiting without a subscription (default 250 ms). */
  pollIntervalMs?: number;
  /** Lifetime of a local nonce reservation (default 60 000 ms, the node's reservation TTL). */
  reservationTtlMs?: number;
  guard?: ChainIdGuard;
  simulator?: ChainSimulator;
  /** Told of each dry run the shared per-node caps refuse (the host's refusal counter, source `submit`); unused with `simulator`. */
  countRefusal?: CountRefusal<'rate_limited' | 'capacity' | 'timeout'>;
  log?: Logger;
}

export interface SubmitRequest {
  /** The signing key; the sender is its address. Never logged or echoed. */
  key: KeySource;
  contract: string;
  function: string;
  /** Wire kwargs (plain JSON plus runtime wrappers), e.g. from `kwargsFromUser`. */
  kwargs?: JsonObject;
  /** Wait for the block and return the receipt (default true); false returns after CheckTx. */
  wait?: boolean;
  /** Refuse when the dry run fails (default true). false still dry-runs for the estimate unless `chiSupplied` is given. */
  simulate?: boolean;
  /** Convert decimal text in kwargs declared float (and integer text declared int) by the contract's signature (default true). */
  coerceBySignature?: boolean;
  /** Explicit chi_supplied; skips the margin rule. */
  chiSupplied?: bigint | number;
  waitTimeoutMs?: number;
  signal?: AbortSignal;
  /** How to ask the person behind the tool call (its ctx.confirm); without it nobody can be asked. */
  confirm?: (request: ConfirmRequest) => Promise<ConfirmOutcome>;
  /** Lines for that person about what this send is part of, e.g. `{ plan_digest, step }`. */
  about?: Record<string, string>;
}

/** TransactionSubmission of the anchor, JSON-safe, plus the dry run and the receipt. */
export interface TransactionSubmission {
  submitted: boolean;
  accepted: boolean;
  finalized: boolean;
  tx_hash: string;
  mode: 'checktx';
  wait_for_tx: boolean;
  chain_id: string;
  sender: string;
  contract: string;
  function: string;
  kwargs: JsonValue;
  nonce: number | string;
  chi_supplied: number | string;
  chi_estimated: number | string | null;
  message: string;
  response: { code: number; log: string; codespace: string; hash: string };
  simulation: { status: number; result: string; chi_used: number | string; state: Array<{ key: string; value: JsonValue }> } | null;
  receipt: TxReceipt | null;
  /** What the executed transaction cost in the native currency, and the unused chi; null before the block or when the rate cannot be read. */
  fee: TxFee | null;
}

/** chi = max(ceil(estimate × margin), estimate + floor), never below 1; exact integer maths. */
export function chiWithMargin(estimate: bigint, margin: number | string = '1.1', floor = 10): bigint {
  const m = ChainDecimal.from(margin);
  if (m.lt(1n)) throw new RangeError(`chi margin must be at least 1, got ${m.toString()}`);
  if (!Number.isSafeInteger(floor) || floor < 0) throw new RangeError(`chi floor must be a non-negative integer, got ${floor}`);
  const scale = 10n ** 30n;
  const product = estimate * m.scaled;
  const scaled = product / scale + (product % scale === 0n ? 0n : 1n);
  const withFloor = estimate + BigInt(floor);
  const chi = scaled > withFloor ? scaled : withFloor;
  return chi < 1n ? 1n : chi;
}

interface SenderLane {
  tail: Promise<void>;
  /** The next nonce this process expects to use, and when it was reserved. */
  reservedNext: bigint | null;
  reservedAt: number;
}

const NONCE_REFUSAL = /nonce is invalid/i;
const ALREADY_IN_CACHE = /already exists in cache/i;

export class TransactionSubmitter {
  readonly chainId: string;
  readonly chiMargin: string;
  readonly chiFloor: number;
  private readonly guard: ChainIdGuard;
  private readonly simulator: ChainSimulator;
  private readonly log: Logger;
  private readonly lanes = new Map<string, SenderLane>();
  private readonly receipts: TxReceipts;
  private readonly guards: SendGuard[] = [];
  private closed = false;

  constructor(readonly node: ChainNode, private readonly options: SubmitterOptions) {
    this.chainId = options.chainId;
    this.chiMargin = ChainDecimal.from(options.chiMargin ?? '1.1').toString();
    this.chiFloor = options.chiFloor ?? 10;
    chiWithMargin(0n, this.chiMargin, this.chiFloor); // validates both now, not at the first send
    this.guard = options.guard ?? chainIdGuardFor(node, options.chainId);
    this.simulator = options.simulator ?? chainSimulatorFor(node, {}, options.countRefusal);
    this.log = options.log ?? silentLogger;
    this.receipts = new TxReceipts(node, { pollIntervalMs: options.pollIntervalMs, log: this.log });
  }

  /** Adds a pre-sign guard (send-guard.ts) for every later send; returns its removal. */
  useGuard(guard: SendGuard): () => void {
    this.guards.push(guard);
    return () => {
      const at = this.guards.indexOf(guard);
      if (at !== -1) this.guards.splice(at, 1);
    };
  }

  async submit(request: SubmitRequest): Promise<TransactionSubmission> {
    if (this.closed) throw new ApiError(503, 'node_unavailable', 'the transaction submitter is stopped');
    const wallet = walletOf(request.key);
    const sender = wallet.address;
    const signal = request.signal;
    await this.guard.assertMatches(signal);
    let kwargs = request.kwargs ?? (Object.create(null) as JsonObject);
    if (request.coerceBySignature !== false) kwargs = await coerceKwargsBySignature(this.node, request.contract, request.function, kwargs, signal);

    let simulation: SimulationResponse | null = null;
    let simulationHeight: string | null = null;
    // Guards judge a send by its dry run, so with any guard there always is one (it refuses only when simulate is on).
    const guards = this.guards.slice();
    const dryRun = async () => {
      const run = await this.simulator.simulate({ sender, contract: request.contract, function: request.function, kwargs }, { signal });
      return { simulation: run as SimulationResponse, height: run.query?.height ?? null };
    };
    if (request.simulate !== false || request.chiSupplied === undefined || guards.length > 0) {
      ({ simulation, height: simulationHeight } = await dryRun());
      const mustSucceed = request.simulate !== false || simulation.refusal !== null;
      if (!simulation.success && mustSucceed) throw simulationFailureError(simulation, `${request.contract}.${request.function} was not sent`);
    }
    const chi = request.chiSupplied !== undefined ? BigInt(request.chiSupplied) : chiWithMargin(simulation!.chi_used, this.chiMargin, this.chiFloor);
    // An explicit limit below what the dry run used would fail in the block with 'Out of chi.' and
    // still pay for all of it (a dry run leaves out the transaction's own bytes, so it never overstates).
    if (request.chiSupplied !== undefined && simulation?.success && BigInt(simulation.chi_used) > chi) {
      const enough = chiWithMargin(simulation.chi_used, this.chiMargin, this.chiFloor);
      throw new ApiError(422, 'chi_too_low', `chi_supplied ${chi} is below the ${simulation.chi_used} chi the dry run of ${request.contract}.${request.function} used: the transaction would fail with "Out of chi." and pay for all ${chi}; nothing was signed or sent. Leave chi_supplied out (the estimate with the margin, ${enough}) or give at least that`, {
        field: 'chi_supplied', chi_estimated: intValue(simulation.chi_used), chi_suggested: intValue(enough),
      });
    }
    if (chi < 1n) throw ApiError.badRequest('chi_supplied must be at least 1', { field: 'chi_supplied' });

    const ask = request.confirm ?? NOBODY_TO_ASK;
    const preview: SendPreview | null = guards.length === 0 ? null : {
      sender, contract: request.contract, function: request.function, kwargs, chiSupplied: chi, simulation, simulationHeight, dryRunAgain: dryRun,
      about: request.about ?? {}, signal,
      confirm: async (confirmRequest) => ask({ ...confirmRequest, binding: await this.sendBinding(sender, request.contract, request.function, kwargs, chi, signal) }),
    };
    for (const guard of guards) await guard.review?.(preview!);

    const wait = request.wait !== false;
    // Subscribe before broadcasting so the block cannot beat us; a node slow to stream is polled.
    if (wait) await Promise.race([this.receipts.subscribe(), new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
    const sent = await this.inSenderLane(sender, async (lane) => {
      const admissions: SendAdmission[] = [];
      const outcome = { mayHaveReachedNode: false };
      try {
        for (const guard of guards) {
          const admission = await guard.admit?.(preview!);
          if (admission) admissions.push(admission);
        }
        return await this.signAndBroadcast(lane, wallet, request, kwargs, chi, wait, outcome, signal);
      } catch (err) {
        // Only a transaction the node certainly did not take gives back what the guards recorded.
        if (!outcome.mayHaveReachedNode) await Promise.all(admissions.map((a) => a.refused().catch((e) => this.log.warn('a send guard could not undo its admission', { error: (e as Error).message }))));
        throw err;
      }
    });

    const base: TransactionSubmission = {
      submitted: true,
      accepted: true,
      finalized: false,
      tx_hash: sent.hash,
      mode: 'checktx',
      wait_for_tx: wait,
      chain_id: this.chainId,
      sender,
      contract: request.contract,
      function: request.function,
      kwargs: toolJson(kwargs),
      nonce: intValue(sent.nonce),
      chi_supplied: intValue(chi),
      chi_estimated: simulation ? intValue(simulation.chi_used) : null,
      message: 'accepted by CheckTx; not waiting for the block',
      response: sent.response,
      simulation: simulation && {
        status: simulation.status,
        result: simulation.result,
        chi_used: intValue(simulation.chi_used),
        state: simulation.state.map((s) => ({ key: s.key, value: toolJson(s.value) })),
      },
      receipt: null,
      fee: null,
    };
    if (!wait) return base;
    const timeoutMs = request.waitTimeoutMs ?? this.options.waitTimeoutMs ?? 30_000;
    const receipt = await sent.receipt(timeoutMs, signal);
    if (!receipt) return { ...base, message: `accepted by CheckTx but not in a block within ${timeoutMs} ms; look it up later with get_transaction` };
    const chiRate = receipt.chi_used === null ? null : await this.chiRate(signal);
    return {
      ...base,
      finalized: true,
      receipt,
      fee: chiRate && receipt.chi_used !== null ? txFee(BigInt(receipt.chi_used), chi, chiRate) : null,
      message: receipt.success
        ? `executed in block ${receipt.height}`
        : `included in block ${receipt.height} but execution failed: ${receipt.error ?? receipt.result ?? 'unknown error'}`,
    };
  }

  private rate: { value: ChainDecimal; at: number } | null = null;

  /** `chi_cost.S:value`, re-read at most once a minute; null when the node cannot say (the fee is then omitted, the send stands). */
  private async chiRate(signal?: AbortSignal): Promise<ChainDecimal | null> {
    if (this.rate && performance.now() - this.rate.at < 60_000) return this.rate.value;
    try {
      const value = abciDecimal(await this.node.query(QueryPath.get(CHI_RATE_KEY), { signal }));
      if (!value) return null;
      this.rate = { value, at: performance.now() };
      return value;
    } catch {
      return null;
    }
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Stops the block subscription; waits in flight end without a receipt. */
  async close(): Promise<void> {
    this.closed = true;
    await this.receipts.close();
  }

  /** Forgets the local nonce reservation of a sender (e.g. after an external send from the same key). */
  invalidateNonce(sender: string): void {
    const lane = this.lanes.get(sender);
    if (lane) lane.reservedNext = null;
  }

  /**
   * What a person's confirmation of this send is bound to: SHA-256 of the canonical payload it
   * will be signed as — chain id, sender, call, kwargs, chi, and the nonce the node expects next
   * (pending-aware). Once the send is taken, that nonce is used up, so the same yes can never
   * match another transaction, on this process or any other.
   */
  private async sendBinding(sender: string, contract: string, fn: string, kwargs: JsonObject, chi: bigint, signal?: AbortSignal): Promise<string> {
    const path = QueryPath.nextNonce(sender);
    const nonce = abciInt(assertAbciOk(await nodeCall('reading the next nonce', () => this.node.query(path, { signal })), path)) ?? 0n;
    const payload = { chain_id: this.chainId, sender, contract, function: fn, kwargs, chi_supplied: chi.toString(), nonce: nonce.toString() };
    return `sha256:${bytesToHex(sha256(utf8Bytes(canonicalJson(payload))))}`;
  }

  // ---- nonce lane ------------------------------------------------------------------------------

  private async inSenderLane<T>(sender: string, run: (lane: SenderLane) => Promise<T>): Promise<T> {
    let lane = this.lanes.get(sender);
    if (!lane) this.lanes.set(sender, (lane = { tail: Promise.resolve(), reservedNext: null, reservedAt: 0 }));
    const previous = lane.tail;
    let release!: () => void;
    lane.tail = new Promise<void>((resolve) => (release = resolve));
    await previous;
    try {
      return await run(lane);
    } finally {
      release();
    }
  }

  private async nextNonce(lane: SenderLane, sender: string, signal?: AbortSignal): Promise<bigint> {
    const path = QueryPath.nextNonce(sender);
    const query = await nodeCall('reading the next nonce', () => this.node.query(path, { signal }));
    const fromNode = abciInt(assertAbciOk(query, path)) ?? 0n;
    const ttl = this.options.reservationTtlMs ?? 60_000;
    if (lane.reservedNext !== null && performance.now() - lane.reservedAt > ttl) lane.reservedNext = null;
    return lane.reservedNext !== null && lane.reservedNext > fromNode ? lane.reservedNext : fromNode;
  }

  private async signAndBroadcast(
    lane: SenderLane, wallet: Wallet, request: SubmitRequest, kwargs: JsonObject, chi: bigint, wait: boolean, outcome: { mayHaveReachedNode: boolean }, signal?: AbortSignal,
  ) {
    for (let attempt = 1; ; attempt++) {
      const nonce = await this.nextNonce(lane, wallet.address, signal);
      const payload: TxPayload = {
        chain_id: this.chainId,
        chi_supplied: Number.isSafeInteger(Number(chi)) ? Number(chi) : chi,
        contract: request.contract,
        function: request.function,
        kwargs,
        nonce: Number.isSafeInteger(Number(nonce)) ? Number(nonce) : nonce,
        sender: wallet.address,
      };
      let encoded;
      try {
        encoded = encodeTransaction(signTransaction(payload, wallet));
      } catch (err) {
        throw ApiError.badRequest(`the transaction cannot be signed: ${(err as Error).message}`);
      }
      const receipt = wait ? this.receipts.expect(encoded.hash) : null;
      let response;
      try {
        response = await this.node.broadcastTxSync(encoded.hex, { signal });
      } catch (err) {
        receipt?.cancel();
        lane.reservedNext = null;
        if (err instanceof RpcError && ALREADY_IN_CACHE.test(err.message)) {
          response = { code: 0, log: err.message, codespace: '', hash: encoded.hash, data: '' };
        } else {
          outcome.mayHaveReachedNode = true;
          const apiError = nodeApiError(err, `broadcasting ${encoded.hash}`);
          throw new ApiError(apiError.status, apiError.code, `${apiError.message}; the transaction may or may not have reached the node: check get_transaction with tx_hash ${encoded.hash}`, { ...apiError.details, tx_hash: encoded.hash });
        }
      }
      if (response.code !== 0) {
        receipt?.cancel();
        lane.reservedNext = null;
        if (NONCE_REFUSAL.test(response.log) && attempt === 1) {
          this.log.debug('nonce refused; retrying once with a fresh nonce', { sender: wallet.address, nonce: String(nonce) });
          continue;
        }
        if (/wrong chain_id/i.test(response.log)) this.guard.refresh();
        throw new ApiError(400, 'transaction_rejected', `the node refused the transaction at CheckTx: ${response.log || `code ${response.code}`}`, {
          check_tx_code: response.code,
          log: response.log,
          codespace: response.codespace,
          tx_hash: encoded.hash,
          nonce: intValue(nonce),
          chi_supplied: intValue(chi),
        });
      }
      lane.reservedNext = nonce + 1n;
      lane.reservedAt = performance.now();
      return {
        hash: encoded.hash,
        nonce,
        response: { code: response.code, log: response.log, codespace: response.codespace, hash: response.hash || encoded.hash },
        receipt: (timeoutMs: number, s?: AbortSignal) => receipt!.wait(timeoutMs, s),
      };
    }
  }
}

function walletOf(key: KeySource): Wallet {
  try {
    return Wallet.from(key);
  } catch (err) {
    throw ApiError.badRequest(err instanceof KeyFormatError ? err.message : 'private key must be 64 hex characters', { field: 'private_key' });
  }
}

/** One submitter per node, so wallet and DEX tools share the per-sender nonce lanes. */
const submitters = new WeakMap<ChainNode, TransactionSubmitter>();

/** The `submit` source of `chainhost_simulate_refusals_total`, for the plugins that create the submitter. */
export function submitRefusalCounter(metrics: MetricsRegistrar): CountRefusal<'rate_limited' | 'capacity' | 'timeout'> {
  return simulationRefusalCounter(metrics, 'submit', ['rate_limited', 'capacity', 'timeout']);
}

export function transactionSubmitterFor(node: ChainNode, options: SubmitterOptions): TransactionSubmitter {
  let submitter = submitters.get(node);
  if (!submitter || submitter.isClosed) {
    submitters.set(node, (submitter = new TransactionSubmitter(node, options)));
  }
  return submitter;
}
