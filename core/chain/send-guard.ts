import type { ConfirmOutcome, ConfirmRequest } from '../tools/tool.js';
import type { JsonObject } from './canonical-json.js';
import type { SimulationResponse } from './simulation.js';

/**
 * The pre-sign extension point of the TransactionSubmitter: every transaction any tool sends
 * passes each registered guard after its dry run and before it is signed, so a plugin can refuse
 * it (spending limits, allow-lists) or have a person confirm it, without the kernel knowing why.
 *
 * Two steps, so that asking a person never holds up other sends and limits stay exact:
 * - `review` runs outside the sender's nonce lane: slow work such as asking the user. It may
 *   also refuse early, with the reason, before anyone is asked.
 * - `admit` runs inside the sender's lane right before signing: quick checks against shared
 *   bookkeeping, which two concurrent sends from one key can therefore not both pass. It may
 *   return an admission whose `refused()` the submitter calls when the node then certainly did
 *   not take the transaction (signing failed, or CheckTx refused it); a transaction that may
 *   have reached the node, or that fails in its block, keeps its admission.
 *
 * A guard refuses by throwing (an ApiError, which the tool answers as it is).
 */
export interface SendPreview {
  /** The signing key's address. */
  sender: string;
  contract: string;
  function: string;
  kwargs: JsonObject;
  chiSupplied: bigint;
  /** The dry run: null only if none could run. With guards registered the submitter always dry-runs. */
  simulation: SimulationResponse | null;
  /** The committed height the dry run answered at (null when unknown). */
  simulationHeight: string | null;
  /**
   * Runs the dry run again, against the state as it is now: for a guard whose own reads found the
   * chain moved on since `simulation` (a block committed in between).
   */
  dryRunAgain(): Promise<{ simulation: SimulationResponse; height: string | null }>;
  /** Lines the sending tool adds for a person, e.g. `{ plan_digest, step: "1 of 2" }`. */
  about: Readonly<Record<string, string>>;
  /** Asks the person at the client (the tool call's ctx.confirm); 'unavailable' when nobody can be asked. */
  confirm(request: ConfirmRequest): Promise<ConfirmOutcome>;
  signal?: AbortSignal;
}

export interface SendAdmission {
  /** The node certainly did not take the transaction: undo what `admit` recorded. */
  refused(): Promise<void>;
}

export interface SendGuard {
  /** Named in logs. */
  readonly name: string;
  review?(preview: SendPreview): Promise<void>;
  admit?(preview: SendPreview): Promise<SendAdmission | void>;
}

/** For a send without a tool call behind it (no one to ask). */
export const NOBODY_TO_ASK = async (): Promise<ConfirmOutcome> => 'unavailable';
