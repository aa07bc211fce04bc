import { z } from 'zod';
import { definePlugin, signerArgumentsOf } from 'chainhost/plugin';
import { encryptionTools } from './tools/encryption-tools.js';
import { signingTools } from './tools/signing-tools.js';

/** Local cryptography (no node): raw and envelope message signatures, NaCl box encryption. */
export const cryptoPlugin = definePlugin({
  name: 'crypto',
  description: 'Crypto tools: sign_message (unsafe), verify_signature (read), encrypt_message and decrypt_message (unsafe).',
  config: z.strictObject({}),
  init(ctx) {
    const signers = signerArgumentsOf(ctx);
    for (const tool of [...signingTools({ chainId: ctx.settings.chainId, signers }), ...encryptionTools(signers)]) ctx.tools.add(tool);
  },
});
