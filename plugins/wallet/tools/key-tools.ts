import { z } from 'zod';
import { Wallet } from 'chainhost/chain';
import { ApiError, defineTool, privateKeySchema, type SignerArguments, type ToolDefinition } from 'chainhost/plugin';

/**
 * Plain key pairs. Local only: no node is contacted. Handing the private key to its owner is the
 * purpose of these answers — unless `store_as` keeps the key in the host's keystore, when the
 * answer is the address alone.
 */
const keyPairOut = z.object({
  // `address`: the name every other tool takes it by; `public_key` is upstream's name for the same value.
  address: z.string().describe('the address (64-hex Ed25519 public key), as the other tools take it'),
  public_key: z.string().describe('the address: 64-hex Ed25519 public key (upstream\'s name)'),
  private_key: z.string().optional().describe('64-hex Ed25519 seed; keep it secret (absent with store_as)'),
  stored_as: z.string().optional().describe('the keystore account now holding the key (with store_as); sign with account: <this>'),
});

/**
 * A new key's answer: stored and named by its address only (`store_as`), or handed over. With
 * raw keys switched off, handing it over would put a key on the wire: `store_as` is required.
 */
export async function newKeyAnswer<T extends object>(signers: SignerArguments, wallet: Wallet, storeAs: string | undefined, handOver: () => T): Promise<T | { stored_as: string }> {
  if (storeAs !== undefined) return { stored_as: (await signers.store(storeAs, wallet)).alias };
  if (!signers.privateKeyArguments) {
    throw ApiError.badRequest(`store_as is required: raw private keys are switched off on this host (${signers.setting.configKey} is false), so a new key can only be kept in the keystore`, { field: 'store_as' });
  }
  return handOver();
}

export function keyTools(signers: SignerArguments): ToolDefinition[] {
  const tools = [
    defineTool({
      name: 'create_wallet',
      title: 'Create wallet',
      description: 'Creates a new random Ed25519 key pair (32 random bytes). With store_as, keeps the key encrypted in the host\'s keystore under that name and returns only the address; otherwise returns the address and the private key (store it safely, it is not kept).',
      capability: 'unsafe',
      input: z.object({ store_as: signers.storeAsField() }),
      output: keyPairOut,
      hints: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
      run: async ({ store_as }) => {
        const wallet = Wallet.generate();
        return { address: wallet.address, public_key: wallet.address, ...(await newKeyAnswer(signers, wallet, store_as, () => ({ private_key: wallet.exportPrivateKey() }))) };
      },
    }),
  ];
  // Its only purpose is to echo a key given as an argument: nothing to offer when raw keys are off.
  if (signers.privateKeyArguments) {
    tools.push(defineTool({
      name: 'create_wallet_from_private_key',
      title: 'Import wallet from private key',
      description: 'Derives the address of a private key (64 hex, optional 0x). Returns the address and the normalised (lowercase) key. To keep a key on the host instead, use chain-keys import.',
      capability: 'unsafe',
      input: z.object({ private_key: privateKeySchema }),
      output: keyPairOut,
      hints: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
      run: async ({ private_key }) => {
        const wallet = Wallet.fromPrivateKey(private_key);
        return { address: wallet.address, public_key: wallet.address, private_key: wallet.exportPrivateKey() };
      },
    }));
  }
  return tools;
}
