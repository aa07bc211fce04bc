import { chainSimulatorFor, submitRefusalCounter, transactionSubmitterFor, TransactionSubmitterToken } from 'chainhost/chain';
import { CoreTokens, definePlugin, Keystore, signerArgumentsOf } from 'chainhost/plugin';
import { PolicyBook } from './policy/policy-book.js';
import { SpendLedger } from './policy/spend-ledger.js';
import { WalletSendGuard } from './policy/wallet-send-guard.js';
import { hdTools } from './tools/hd-tools.js';
import { policyTools } from './tools/policy-tools.js';
import { keyTools } from './tools/key-tools.js';
import { contractTools } from './tools/contract-tools.js';
import { sendTools } from './tools/send-tools.js';
import { walletConfigSchema } from './wallet.config.js';

/**
 * Wallet tools (all unsafe): key pairs, HD wallets, sends. Publishes the shared
 * TransactionSubmitter (TransactionSubmitterToken) that every submitting plugin uses, so
 * sends from one key share one nonce lane whichever tool makes them — and guards it: the
 * spending policies of keystore accounts (`policies`) and the person's confirmation (`confirm`)
 * are checked there before anything is signed, whichever tool sends (policy/wallet-send-guard.ts).
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
  async init(ctx) {
    const node = ctx.resolve(CoreTokens.chainNode);
    const submitter = transactionSubmitterFor(node, {
      chainId: ctx.settings.chainId,
      chiMargin: ctx.options.chiMargin,
      chiFloor: ctx.options.chiFloor,
      waitTimeoutMs: ctx.options.waitTimeoutMs,
      pollIntervalMs: ctx.options.pollIntervalMs,
      countRefusal: submitRefusalCounter(ctx.resolve(CoreTokens.metrics)),
      log: ctx.log,
    });
    ctx.onStop(() => submitter.close());
    const simulator = chainSimulatorFor(node);
    ctx.provide(TransactionSubmitterToken, submitter);

    const book = new PolicyBook(new Keystore(ctx.settings.home), ctx.options.policies);
    const ledger = await SpendLedger.open(ctx.settings.home);
    if (book.hasPolicies || ctx.options.confirm.ask !== 'never') {
      const orphans = await book.refresh();
      // Not fatal: an account stored later under that name gets the policy from its first send.
      for (const alias of orphans) ctx.log.warn(`plugins.wallet.policies.${alias}: no keystore account of that name yet (chain-keys list, or the list_accounts tool); the policy applies once it exists`);
      ctx.onStop(submitter.useGuard(new WalletSendGuard(node, book, ledger, ctx.options.confirm)));
    }
    const signers = signerArgumentsOf(ctx);
    const tools = [
      ...policyTools({ book, ledger, confirm: ctx.options.confirm, unlocked: () => ctx.resolve(CoreTokens.accounts).unlocked }),
      ...keyTools(signers),
      ...hdTools(signers),
      ...sendTools({ submitter: () => submitter, signers, includeRaw: ctx.settings.includeRaw, waitTimeoutMs: ctx.options.waitTimeoutMs }),
      ...contractTools({
        submitter: () => submitter, simulator: () => simulator, signers, includeRaw: ctx.settings.includeRaw, waitTimeoutMs: ctx.options.waitTimeoutMs,
      }),
    ];
    for (const tool of tools) ctx.tools.add(tool);
  },
});
