export { walletPlugin } from './wallet.plugin.js';
export { walletConfigSchema, type WalletConfig } from './wallet.config.js';
export { TransactionSubmitter, TransactionSubmitterToken, transactionSubmitterFor, chiWithMargin, type SubmitRequest, type TransactionSubmission } from 'chainhost/chain';
export type { TxReceipt } from 'chainhost/chain';
