export { walletPlugin } from './wallet.plugin.js';
export { walletConfigSchema, type WalletConfig } from './wallet.config.js';
export {
  TransactionSubmitter,
  TransactionSubmitterToken,
  transactionSubmitterFor,
  chiWithMargin,
  type SubmitRequest,
  type TransactionSubmission,
  type TxReceipt,
} from '../../core/chain/transaction-submitter.js';
