import { RpcError } from 'chainhost/chain';
import { internal } from './rpc-blocks.js';

/**
 * `broadcast_evidence` on a one-validator devnet. CometBFT (rpc/core/evidence.go) decodes the
 * amino-JSON evidence, runs `ValidateBasic`, then hands it to the evidence pool, which verifies
 * it against the validator set. The devnet's only validator never signs two blocks at one
 * height and there is no light client to attack, so no evidence can verify: the answer is
 * CometBFT's error for each stage — nothing is ever added.
 */
const EVIDENCE_TYPES = ['tendermint/DuplicateVoteEvidence', 'tendermint/LightClientAttackEvidence'];

export function broadcastEvidence(evidenceJson: string | undefined, validatorAddress: string): never {
  if (evidenceJson === undefined || evidenceJson === '' || evidenceJson === 'null') throw internal('no evidence was provided');
  let evidence: { type?: unknown; value?: Record<string, unknown> };
  try {
    evidence = JSON.parse(evidenceJson);
  } catch (err) {
    throw new RpcError(-32602, 'Invalid params', `error converting json params to arguments: ${(err as Error).message}`);
  }
  if (typeof evidence !== 'object' || evidence === null || !EVIDENCE_TYPES.includes(String(evidence.type))) {
    throw new RpcError(-32602, 'Invalid params', `error converting json params to arguments: amino: unknown evidence type ${JSON.stringify(evidence?.type ?? null)}`);
  }
  const value = evidence.value ?? {};
  if (evidence.type === 'tendermint/LightClientAttackEvidence') {
    if (!value['conflicting_block']) throw internal('evidence.ValidateBasic failed: conflicting block is nil');
    throw internal('failed to add evidence: light client attack evidence cannot be verified: the devnet runs no light client');
  }
  const voteA = value['vote_a'] as Record<string, unknown> | undefined;
  const voteB = value['vote_b'] as Record<string, unknown> | undefined;
  if (!voteA || !voteB) throw internal(`evidence.ValidateBasic failed: one or both of the votes are empty ${voteA ? 'vote' : '<nil>'}, ${voteB ? 'vote' : '<nil>'}`);
  const address = String(voteA['validator_address'] ?? '');
  if (address.toUpperCase() !== validatorAddress) {
    throw internal(`failed to add evidence: verifying duplicate vote evidence: address ${address} was not a validator at height ${String(voteA['height'] ?? '')}`);
  }
  throw internal('failed to add evidence: verifying duplicate vote evidence: invalid signature: the devnet validator signed no conflicting vote');
}
