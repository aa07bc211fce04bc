import { z } from 'zod';
import { definePlugin } from 'chainhost/plugin';
import { encryptionTools } from './tools/encryption-tools.js';
import { signingTools } from './tools/signing-tools.js';

/** Local cryptography (no node): raw and envelope message signatures, NaCl box encryption. */
export const cryptoPlugin = definePlugin({
  name: 'crypto',
  description: 'Crypto tools: sign_message (unsafe), verify_signature (read), encrypt_message and decrypt_message (unsafe).',
  config: z.strictObject({}),
  init(ctx) {
    for (const tool of [...signingTools({ chainId: ctx.settings.chainId }), ...encryptionTools()]) ctx.tools.add(tool);
  },
});
