import { z } from 'zod';
import { Wallet } from 'chainhost/chain';
import { defineTool, privateKeySchema, type ToolDefinition } from 'chainhost/plugin';

/** Plain key pairs. Local only: no node is contacted. The private key is the intended result here and nowhere else. */
const keyPairOut = z.object({
  public_key: z.string().describe('the address: 64-hex Ed25519 public key'),
  private_key: z.string().describe('64-hex Ed25519 seed; keep it secret'),
});

export function keyTools(): ToolDefinition[] {
  return [
    defineTool({
      name: 'create_wallet',
      title: 'Create wallet',
      description: 'Creates a new random Ed25519 key pair (32 random bytes). Returns the address (public key) and the private key; store the key safely, it is not kept.',
      capability: 'unsafe',
      input: z.object({}),
      output: keyPairOut,
      hints: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
      run: async () => {
        const wallet = Wallet.generate();
        return { public_key: wallet.address, private_key: wallet.exportPrivateKey() };
      },
    }),
    defineTool({
      name: 'create_wallet_from_private_key',
      title: 'Import wallet from private key',
      description: 'Derives the address of a private key (64 hex, optional 0x). Returns the address and the normalised (lowercase) key.',
      capability: 'unsafe',
      input: z.object({ private_key: privateKeySchema }),
      output: keyPairOut,
      hints: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
      run: async ({ private_key }) => {
        const wallet = Wallet.fromPrivateKey(private_key);
        return { public_key: wallet.address, private_key: wallet.exportPrivateKey() };
      },
    }),
  ];
}
