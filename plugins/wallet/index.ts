export { walletPlugin } from './wallet.plugin.js';
export { walletConfigSchema, type WalletConfig } from './wallet.config.js';
export {
  TransactionSubmitter,
  TransactionSubmitterToken,
  transactionSubmitterFor,
  chiWithMargin,
  type SubmitRequest,
  type TransactionSubmission,
} from '../../core/chain/transaction-submitter.js';
export type { TxReceipt } from '../../core/chain/tx-receipts.js';
