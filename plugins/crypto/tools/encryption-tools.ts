import { z } from 'zod';
import { decryptAsReceiver, DecryptionError, encryptMessage, KeyFormatError } from 'chainhost/chain';
import { addressSchema, ApiError, defineTool, type SignerArguments, type ToolDefinition } from 'chainhost/plugin';

/**
 * NaCl box between two accounts (crypto.md §5): Ed25519 keys converted to X25519, a random
 * 24-byte nonce, output hex of nonce ‖ MAC ‖ ciphertext (the Python SDK's format). Either party
 * can decrypt with its own key and the other's address.
 */
const MAX_MESSAGE = 100_000;

function keyError(err: unknown, field: string): never {
  if (err instanceof KeyFormatError) throw ApiError.badRequest(`${field}: ${err.message}`, { field });
  if (err instanceof DecryptionError) throw ApiError.badRequest(err.message, { field: 'encrypted_message' });
  throw err;
}

export function encryptionTools(signers: SignerArguments): ToolDefinition[] {
  return [
    defineTool({
      name: 'encrypt_message',
      title: 'Encrypt message',
      description: "Encrypts a message from the sender's key (sender_account or sender_private_key) to the receiver's address (NaCl box, random nonce). Returns hex of nonce ‖ MAC ‖ ciphertext; the receiver decrypts it with decrypt_message.",
      capability: 'unsafe',
      input: z.object({
        ...signers.fields('sender_private_key', 'the sender'),
        receiver_public_key: addressSchema,
        message: z.string().max(MAX_MESSAGE).describe('the text to encrypt (UTF-8)'),
      }),
      output: z.object({ sender_public_key: z.string(), receiver_public_key: z.string(), encrypted_message: z.string() }),
      refusedArguments: signers.refused('sender_private_key'),
      hints: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
      run: async (args) => {
        const { receiver_public_key, message } = args;
        const sender = (await signers.resolve(args, 'sender_private_key')).wallet;
        let encrypted: string;
        try {
          encrypted = encryptMessage(sender, receiver_public_key, message);
        } catch (err) {
          keyError(err, 'receiver_public_key');
        }
        return { sender_public_key: sender.address, receiver_public_key, encrypted_message: encrypted };
      },
    }),
    defineTool({
      name: 'decrypt_message',
      title: 'Decrypt message',
      description: "Decrypts a message encrypted to the receiver's key (receiver_account or receiver_private_key) by the sender's address (hex of nonce ‖ MAC ‖ ciphertext). Fails when the keys do not match or the ciphertext was altered.",
      capability: 'unsafe',
      input: z.object({
        ...signers.fields('receiver_private_key', 'the receiver'),
        sender_public_key: addressSchema,
        encrypted_message: z
          .string()
          .trim()
          .max(2 * (MAX_MESSAGE * 4 + 40))
          .regex(/^([0-9a-fA-F]{2})+$/, 'must be hex (nonce ‖ MAC ‖ ciphertext)')
          .min(80, 'is too short: at least 40 bytes (80 hex characters) of nonce and MAC'),
      }),
      output: z.object({ receiver_public_key: z.string(), sender_public_key: z.string(), decrypted_message: z.string() }),
      refusedArguments: signers.refused('receiver_private_key'),
      hints: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
      run: async (args) => {
        const { sender_public_key, encrypted_message } = args;
        const receiver = (await signers.resolve(args, 'receiver_private_key')).wallet;
        let text: string;
        try {
          text = decryptAsReceiver(sender_public_key, receiver, encrypted_message);
        } catch (err) {
          keyError(err, 'sender_public_key');
        }
        return { receiver_public_key: receiver.address, sender_public_key, decrypted_message: text };
      },
    }),
  ];
}
