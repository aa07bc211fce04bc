import { submitRefusalCounter, transactionSubmitterFor, TransactionSubmitterToken } from 'chainhost/chain';
import { CoreTokens, definePlugin } from 'chainhost/plugin';
import { hdTools } from './tools/hd-tools.js';
import { keyTools } from './tools/key-tools.js';
import { sendTools } from './tools/send-tools.js';
import { walletConfigSchema } from './wallet.config.js';

/**
 * Wallet tools (all unsafe): key pairs, HD wallets, sends. Publishes the shared
 * TransactionSubmitter (TransactionSubmitterToken) that every submitting plugin uses, so
 * sends from one key share one nonce lane whichever tool makes them.
 */
export const walletPlugin = definePlugin({
  name: 'wallet',
  description: 'Wallet tools: create/import keys and HD wallets, send transactions and tokens (unsafe).',
  after: ['devnet'],
  config: walletConfigSchema,
  init(ctx) {
    const submitter = transactionSubmitterFor(ctx.resolve(CoreTokens.chainNode), {
      chainId: ctx.settings.chainId,
      chiMargin: ctx.options.chiMargin,
      chiFloor: ctx.options.chiFloor,
      waitTimeoutMs: ctx.options.waitTimeoutMs,
      pollIntervalMs: ctx.options.pollIntervalMs,
      countRefusal: submitRefusalCounter(ctx.resolve(CoreTokens.metrics)),
      log: ctx.log,
    });
    ctx.onStop(() => submitter.close());
    ctx.provide(TransactionSubmitterToken, submitter);
    const tools = [
      ...keyTools(),
      ...hdTools(),
      ...sendTools({ submitter: () => submitter, includeRaw: ctx.settings.includeRaw, waitTimeoutMs: ctx.options.waitTimeoutMs }),
    ];
    for (const tool of tools) ctx.tools.add(tool);
  },
});
