import { z } from 'zod';
import { EnvelopeError, isSignature, signMessageEnvelope, signRawMessage, ValueMovingTextError, verifyMessageEnvelope, verifyRawMessage } from 'chainhost/chain';
import { addressSchema, ApiError, defineTool, type SignerArguments, type ToolDefinition } from 'chainhost/plugin';

/**
 * sign_message / verify_signature over the exact message text (spec §1.7): no trimming or
 * normalisation. Raw Ed25519 by default; `envelope: true` uses the versioned "Xian Signed
 * Message" envelope injected wallets sign (crypto.md §4), bound to a chain id.
 */
const MAX_MESSAGE = 100_000;

const messageSchema = z.string().max(MAX_MESSAGE).describe('the exact message text; spaces, newlines and Unicode are kept as given');
const envelopeSchema = z.boolean().default(false).describe('true: the versioned wallet envelope (bound to chain_id) instead of raw Ed25519');
const chainIdSchema = z.string().trim().min(1).max(100).optional().describe('chain id inside the envelope (envelope only; default CHAIN_ID)');

/** A raw signature, or a 403 naming the rule when the text would move value on chain (value-moving-text.ts). */
function signRaw(wallet: Parameters<typeof signRawMessage>[0], message: string): string {
  try {
    return signRawMessage(wallet, message);
  } catch (err) {
    if (err instanceof ValueMovingTextError) throw new ApiError(403, 'signature_refused', `message: ${err.message}`, { field: 'message', rule: err.found.rule });
    throw err;
  }
}

export function signingTools(options: { chainId: string; signers: SignerArguments }): ToolDefinition[] {
  const { signers } = options;
  const envelopeChainId = (envelope: boolean, chainId: string | undefined): string | null => {
    if (!envelope && chainId !== undefined) throw ApiError.badRequest('chain_id applies only with envelope: true', { field: 'chain_id' });
    return envelope ? chainId ?? options.chainId : null;
  };
  return [
    defineTool({
      name: 'sign_message',
      title: 'Sign message',
      description:
        'Signs the exact message text with account or private_key: raw Ed25519 over its UTF-8 (default) or the versioned wallet envelope (envelope: true); returns the signature and address. ' +
        'Refuses (signature_refused) a text the chain would take as a transaction payload or an XSC002 permit: those go through send_transaction, under the spending policy.',
      capability: 'unsafe',
      input: z.object({ ...signers.fields('private_key', 'the signing account'), message: messageSchema, envelope: envelopeSchema, chain_id: chainIdSchema }),
      refusedArguments: signers.refused('private_key'),
      output: z.object({
        signature: z.string(),
        public_key: z.string().describe("the signer's address"),
        scheme: z.enum(['raw', 'envelope']),
        chain_id: z.string().nullable(),
        signed_text: z.string().optional().describe('envelope only: the exact text that was signed'),
      }),
      hints: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
      run: async (args) => {
        const { message, envelope, chain_id } = args;
        const wallet = (await signers.resolve(args, 'private_key')).wallet;
        const chainId = envelopeChainId(envelope, chain_id);
        if (chainId === null) return { signature: signRaw(wallet, message), public_key: wallet.address, scheme: 'raw' as const, chain_id: null };
        try {
          const signed = signMessageEnvelope(wallet, { account: wallet.address, chainId, message });
          return { signature: signed.signature, public_key: wallet.address, scheme: 'envelope' as const, chain_id: signed.chainId, signed_text: signed.envelope };
        } catch (err) {
          if (err instanceof EnvelopeError) throw ApiError.badRequest(err.message);
          throw err;
        }
      },
    }),
    defineTool({
      name: 'verify_signature',
      title: 'Verify signature',
      description:
        'Checks a signature over the exact message text by an address: raw Ed25519 (default) or the versioned wallet envelope (envelope: true, with chain_id). A malformed or wrong signature is valid: false, not an error.',
      capability: 'read',
      input: z.object({
        address: addressSchema,
        message: messageSchema,
        signature: z.string().max(1_000).describe('128 hex characters'),
        envelope: envelopeSchema,
        chain_id: chainIdSchema,
      }),
      output: z.object({
        valid: z.boolean(),
        address: z.string(),
        scheme: z.enum(['raw', 'envelope']),
        chain_id: z.string().nullable(),
        reason: z.string().optional().describe('why the signature is not valid'),
      }),
      hints: { idempotentHint: true, openWorldHint: false },
      run: async ({ address, message, signature, envelope, chain_id }) => {
        const chainId = envelopeChainId(envelope, chain_id);
        const scheme = chainId === null ? ('raw' as const) : ('envelope' as const);
        const sig: string = signature.trim();
        const length = sig.length;
        if (!isSignature(sig)) return { valid: false, address, scheme, chain_id: chainId, reason: `signature must be 128 hex characters; got ${length} characters` };
        const valid = chainId === null ? verifyRawMessage(address, message, sig) : verifyMessageEnvelope(address, { account: address, chainId, message }, sig);
        if (valid) return { valid, address, scheme, chain_id: chainId };
        const reason =
          chainId === null
            ? 'the signature does not match this address and exact message (raw Ed25519)'
            : `the signature does not match this address and exact message in the envelope for chain ${chainId}`;
        return { valid, address, scheme, chain_id: chainId, reason };
      },
    }),
  ];
}
