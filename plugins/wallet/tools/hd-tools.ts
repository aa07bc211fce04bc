import { z } from 'zod';
import { deriveFromMnemonic, type DeriveOptions, generateMnemonic, MnemonicError, mnemonicProblem, normalizeMnemonic, UPSTREAM_MCP_PATH, Wallet } from 'chainhost/chain';
import { ApiError, defineTool, type SignerArguments, type ToolDefinition } from 'chainhost/plugin';
import { newKeyAnswer } from './key-tools.js';

/**
 * HD wallets. The default scheme `xian` is the official browser and mobile wallets' derivation
 * (crypto.md §2.1, "xian-wallet-seed-v2"), so the same words give the same address there.
 * `slip10` is the compatibility option for keys made by the upstream MCP server
 * (m/44'/0'/0'/0'/0' by default); `xian_v1` recovers wallets of older browser-wallet versions.
 * Mnemonics are secrets: errors name word positions, never words.
 */
const SCHEMES = {
  xian: 'v2',
  xian_v1: 'v1',
  slip10: 'slip10',
} as const;
type SchemeName = keyof typeof SCHEMES;

const indexSchema = z.number().int().min(0).max(2 ** 31 - 1).default(0).describe('account index for the xian schemes (default 0)');
const pathSchema = z
  .string()
  .max(200)
  .regex(/^m(\/\d+['hH])+$/, "must be a SLIP-10 path of hardened steps, like m/44'/0'/0'/0'/0'")
  .optional()
  .describe(`SLIP-10 path (scheme slip10 only; default ${UPSTREAM_MCP_PATH})`);

const mnemonicSchema = z
  .string()
  .max(1_000)
  .transform((value, ctx) => {
    const problem = mnemonicProblem(value);
    if (problem) {
      ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    }
    return normalizeMnemonic(value);
  })
  .describe('BIP39 English mnemonic (12, 15, 18, 21 or 24 words; case and extra spaces are ignored)');

const hdOut = z.object({
  mnemonic: z.string().optional().describe('the words (absent with store_as: only the derived key is kept)'),
  word_count: z.number().int(),
  scheme: z.enum(['xian', 'xian_v1', 'slip10']),
  index: z.number().int().nullable().describe('account index (xian schemes)'),
  path: z.string().nullable().describe('SLIP-10 path (slip10 scheme)'),
  derivation: z.string().describe('how the key was derived, in words'),
  address: z.string().describe('the address (64-hex Ed25519 public key), as the other tools take it'),
  xian_public_key: z.string().describe('the address (64-hex Ed25519 public key; upstream\'s name)'),
  xian_private_key: z.string().optional().describe('64-hex Ed25519 seed; keep it secret (absent with store_as)'),
  stored_as: z.string().optional().describe('the keystore account now holding the derived key (with store_as); sign with account: <this>'),
});

function derive(mnemonic: string, scheme: SchemeName, index: number, path: string | undefined): z.input<typeof hdOut> {
  if (scheme !== 'slip10' && path !== undefined) {
    throw ApiError.badRequest(`path applies to scheme slip10 only; scheme ${scheme} uses index`, { field: 'path' });
  }
  if (scheme === 'slip10' && index !== 0) {
    throw ApiError.badRequest('index applies to the xian schemes; for slip10 give the full path instead', { field: 'index' });
  }
  const options: DeriveOptions = { scheme: SCHEMES[scheme], index, path: scheme === 'slip10' ? path ?? UPSTREAM_MCP_PATH : undefined };
  let key;
  try {
    key = deriveFromMnemonic(mnemonic, options);
  } catch (err) {
    if (err instanceof MnemonicError) throw ApiError.badRequest(err.message, { field: err.message.includes('path') ? 'path' : 'mnemonic' });
    throw err;
  }
  const derivation =
    scheme === 'slip10'
      ? `SLIP-10 ed25519 at ${key.path} (compatibility with the upstream MCP server; the official wallets derive a different address)`
      : `SHA-256(bip39_seed ‖ "xian-wallet-seed-${scheme === 'xian' ? 'v2' : 'v1'}"${scheme === 'xian' || index > 0 ? ' ‖ uint32_be(index)' : ''}), index ${index}${scheme === 'xian' ? ' (the official browser and mobile wallets\' scheme)' : ' (older browser-wallet versions)'}`;
  return {
    mnemonic,
    word_count: mnemonic.split(' ').length,
    scheme,
    index: scheme === 'slip10' ? null : index,
    path: key.path ?? null,
    derivation,
    address: key.publicKey,
    xian_public_key: key.publicKey,
    xian_private_key: key.privateKey,
  };
}

/** The derivation's answer, or — with store_as — the key stored and the answer stripped of the mnemonic and key. */
async function answer(signers: SignerArguments, derived: z.input<typeof hdOut>, storeAs: string | undefined): Promise<z.input<typeof hdOut>> {
  const { mnemonic, xian_private_key, ...publicPart } = derived;
  const wallet = Wallet.fromPrivateKey(xian_private_key!);
  return { ...publicPart, ...(await newKeyAnswer(signers, wallet, storeAs, () => ({ mnemonic, xian_private_key }))) };
}

export function hdTools(signers: SignerArguments): ToolDefinition[] {
  const tools = [
    defineTool({
      name: 'create_hd_wallet',
      title: 'Create HD wallet',
      description:
        'Creates a new BIP39 mnemonic (12 or 24 words) and derives its key. Scheme "xian" (default) matches the official wallets; "slip10" the upstream MCP server. Returns mnemonic and key, keeping neither — unless store_as keeps the key in the keystore and returns only the address.',
      capability: 'unsafe',
      input: z.object({
        words: z.union([z.literal(12), z.literal(24)]).default(12).describe('mnemonic length: 12 (default, like the browser wallet) or 24'),
        scheme: z.enum(['xian', 'slip10']).default('xian').describe('xian (default): the official wallets\' derivation; slip10: upstream MCP server compatibility'),
        index: indexSchema,
        path: pathSchema,
        store_as: signers.storeAsField(),
      }),
      output: hdOut,
      hints: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
      run: async ({ words, scheme, index, path, store_as }) => answer(signers, derive(generateMnemonic(words), scheme, index, path), store_as),
    }),
  ];
  // It takes a mnemonic, a key in words: withheld when no key may cross the tool interface.
  if (!signers.privateKeyArguments) return tools;
  tools.push(
    defineTool({
      name: 'create_hd_wallet_from_mnemonic',
      title: 'Import HD wallet from mnemonic',
      description:
        'Derives the key of an existing BIP39 mnemonic (checksum checked): scheme "xian" (default; the official wallets), "xian_v1" (older browser wallets) or "slip10" (upstream MCP server). store_as keeps the key and returns only the address.',
      capability: 'unsafe',
      input: z.object({
        mnemonic: mnemonicSchema,
        scheme: z.enum(['xian', 'xian_v1', 'slip10']).default('xian').describe('xian (default), xian_v1 (older browser wallets) or slip10 (upstream MCP server)'),
        index: indexSchema,
        path: pathSchema,
        store_as: signers.storeAsField(),
      }),
      output: hdOut,
      hints: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
      run: async ({ mnemonic, scheme, index, path, store_as }) => answer(signers, derive(mnemonic, scheme, index, path), store_as),
    }),
  );
  return tools;
}
