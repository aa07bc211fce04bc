import { z } from 'zod';
import { ALIAS_PATTERN } from 'chainhost/plugin';
import { accountPolicySchema } from './policy/spending-policy.js';
import { sendConfirmationSchema } from './policy/send-confirmation.js';

/** `plugins.wallet`: how sends pick chi and wait for their block (see core/chain/transaction-submitter.ts). */
export const walletConfigSchema = z.strictObject({
  /** chi = max(ceil(estimate × chiMargin), estimate + chiFloor). An exact decimal ≥ 1. */
  chiMargin: z
    .union([z.string().regex(/^\d+(\.\d+)?$/, 'must be a decimal such as "1.1"'), z.number().min(1)])
    .default('1.1')
    .refine((v) => Number(v) >= 1, 'must be at least 1'),
  chiFloor: z.number().int().min(0).max(1_000_000).default(10),
  /** How long send tools wait for the block when `wait` is true. */
  waitTimeoutMs: z.number().int().min(100).max(300_000).default(30_000),
  /** Polling interval for the transaction when the node offers no event stream. */
  pollIntervalMs: z.number().int().min(10).max(10_000).default(250),
  /**
   * Spending policy per keystore account (`chain-keys` alias). It binds the account's address,
   * however its key reaches a tool; no tool call can change it.
   */
  policies: z.record(z.string().regex(ALIAS_PATTERN, 'must be a keystore account name (chain-keys list)'), accountPolicySchema).default({}),
  /** When a person at the MCP client must accept a send (MCP elicitation). */
  confirm: sendConfirmationSchema.default({ ask: 'never', fallback: 'refuse', timeoutSeconds: 120 }),
  /**
   * Keys across MCP. true (default): signing tools take `private_key` (and `*_private_key`) next
   * to `account`. false: those arguments leave every tool schema of every plugin and are refused
   * if sent; tools sign only with keystore accounts (`account`), key-import tools are withheld
   * and create_wallet / create_hd_wallet require `store_as` — so no key crosses MCP.
   */
  privateKeyArguments: z.boolean().default(true),
});

export type WalletConfig = z.output<typeof walletConfigSchema>;
