import { CoreTokens } from '../../core/core-tokens.js';
import { definePlugin } from '../../core/plugin.js';
import { submitRefusalCounter, TransactionSubmitterToken, transactionSubmitterFor } from '../../core/chain/transaction-submitter.js';
import { signerArgumentsOf } from '../../core/tools/signer-arguments.js';
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
  register(ctx) {
    // Read by every signing tool (crypto, dex, third parties) in their init, which runs after every register.
    ctx.provide(CoreTokens.keyArguments, { privateKeyArguments: ctx.options.privateKeyArguments, configKey: 'plugins.wallet.privateKeyArguments' });
  },
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
    const signers = signerArgumentsOf(ctx);
    const tools = [
      ...keyTools(signers),
      ...hdTools(signers),
      ...sendTools({ submitter: () => submitter, signers, includeRaw: ctx.settings.includeRaw, waitTimeoutMs: ctx.options.waitTimeoutMs }),
    ];
    for (const tool of tools) ctx.tools.add(tool);
  },
});
