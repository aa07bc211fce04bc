import { z } from 'zod';
import { abciDecimal, CHI_RATE_KEY, decodeRawTx, decodeTxResultData, mismatchText, QueryPath, RpcError, txFee, txReceiptOf } from 'chainhost/chain';
import { ApiError, balanceWrites, decimalOut, defineTool, intOut, intValue, nodeApiError, nodeCall, rawOut, type ToolDefinition, toolJson, txFeeOut, txHashSchema, txReceiptOut, verboseSchema, warningsOut, withExtras } from 'chainhost/plugin';
import type { ReadDeps } from '../chain-reads.js';

export function chainTools(deps: ReadDeps): ToolDefinition[] {
  return [
    defineTool({
      name: 'get_transaction',
      title: 'Get transaction',
      description:
        'A committed transaction by its hash: success, height, the call, result or error, chi used and fee in currency, the balances it wrote for sender and recipient. verbose adds events, state writes, the signed transaction and execution output. 404 when not (yet) in a block.',
      capability: 'read',
      input: z.object({ tx_hash: txHashSchema, verbose: verboseSchema }),
      output: txReceiptOut.extend({
        message: z.string(),
        sender: z.string().nullable(),
        contract: z.string().nullable(),
        function: z.string().nullable(),
        kwargs: z.unknown().describe('the call arguments as signed'),
        nonce: intOut.nullable(),
        chi_supplied: intOut.nullable(),
        fee: txFeeOut.nullable(),
        balances: z.array(z.object({ token: z.string(), address: z.string(), balance: decimalOut })).describe('balances it wrote for the sender and `to`'),
        // verbose only
        events: z.array(z.unknown()).optional(),
        state: z.array(z.object({ key: z.string(), value: z.unknown() })).optional().describe('verbose: every state write; decimals as strings'),
        execution_hash: z.string().nullable().optional(),
        log: z.string().optional(),
        transaction: z.unknown().optional().describe('verbose: the signed transaction {metadata: {signature}, payload}'),
        execution: z.unknown().optional().describe('verbose: the decoded execution output (tx_result.data)'),
        warnings: warningsOut,
        raw: rawOut,
      }),
      run: async ({ tx_hash, verbose }, ctx) => {
        const [tx, warnings] = await Promise.all([
          deps.node.tx(tx_hash, { signal: ctx.signal }).catch((err: unknown) => {
            if (err instanceof RpcError && /not found/i.test(err.message)) {
              throw ApiError.notFound(`transaction ${tx_hash} not found: it is not in a block yet, or the node does not know it`, { tx_hash });
            }
            throw nodeApiError(err, `looking up transaction ${tx_hash}`);
          }),
          deps.guard.warnings(ctx.signal),
        ]);
        const receipt = txReceiptOf(tx);
        let transaction: unknown = null;
        try {
          transaction = toolJson(decodeRawTx(tx.tx).tx);
        } catch {
          warnings.push('the raw transaction bytes could not be decoded');
        }
        const data = decodeTxResultData(tx.tx_result.data);
        const execution = data.kind === 'execution' ? toolJson(data.output) : data.kind === 'rejected' ? { error: data.error } : null;
        const message = receipt.success ? `executed successfully in block ${receipt.height}` : `failed in block ${receipt.height}: ${receipt.error ?? 'unknown error'}`;
        const payload = (transaction as { payload?: Record<string, unknown> } | null)?.payload ?? {};
        const text = (v: unknown) => (typeof v === 'string' ? v : null);
        const chiSupplied = payload.chi_supplied ?? payload.stamps_supplied;
        const supplied = typeof chiSupplied === 'number' || typeof chiSupplied === 'string' ? BigInt(chiSupplied) : null;
        const rate = receipt.chi_used !== null && supplied !== null
          ? await deps.node.query(QueryPath.get(CHI_RATE_KEY), { signal: ctx.signal }).then(abciDecimal, () => null)
          : null;
        const sender = text(payload.sender);
        const kwargs = payload.kwargs ?? null;
        const to = kwargs && typeof kwargs === 'object' ? text((kwargs as Record<string, unknown>).to) : null;
        const { events, state, execution_hash, log, ...essential } = receipt;
        const full = verbose || deps.includeRaw;
        return withExtras({
          ...essential,
          message,
          sender,
          contract: text(payload.contract),
          function: text(payload.function),
          kwargs,
          nonce: typeof payload.nonce === 'number' || typeof payload.nonce === 'string' ? payload.nonce : null,
          chi_supplied: supplied === null ? null : intValue(supplied),
          fee: rate && supplied !== null && receipt.chi_used !== null ? txFee(BigInt(receipt.chi_used), supplied, rate) : null,
          balances: balanceWrites(state, new Set([sender, to].filter((a): a is string => a !== null))),
          ...(full ? { events, state, execution_hash, log, transaction, execution } : {}),
        }, { warnings, includeRaw: deps.includeRaw, raw: { tx } });
      },
    }),
    defineTool({
      name: 'get_node_status',
      title: 'Get node status',
      description:
        "The node's chain id (status node_info.network), latest block, whether it is catching up, and whether CHAIN_ID matches (transactions are signed for CHAIN_ID; a mismatch is reported as a warning).",
      capability: 'read',
      input: z.object({}),
      output: z.object({
        chain_id: z.string(),
        configured_chain_id: z.string(),
        chain_id_matches: z.boolean(),
        latest_block_height: intOut,
        latest_block_hash: z.string(),
        latest_block_time: z.string(),
        latest_app_hash: z.string(),
        earliest_block_height: intOut,
        catching_up: z.boolean(),
        node_id: z.string(),
        moniker: z.string(),
        version: z.string(),
        warnings: warningsOut,
        raw: rawOut,
      }),
      run: async (_args, ctx) => {
        const status = await nodeCall('reading node status', () => deps.node.status({ signal: ctx.signal }));
        const network = status.node_info.network;
        deps.guard.observe(network);
        const check = { configured: deps.guard.configured, node: network, matches: network === deps.guard.configured };
        const warnings = check.matches ? [] : [mismatchText(check)];
        if (status.sync_info.catching_up) warnings.push('the node is catching up: its state may be behind the network');
        const s = status.sync_info;
        return withExtras(
          {
            chain_id: network,
            configured_chain_id: check.configured,
            chain_id_matches: check.matches,
            latest_block_height: intValue(BigInt(s.latest_block_height)),
            latest_block_hash: s.latest_block_hash,
            latest_block_time: s.latest_block_time,
            latest_app_hash: s.latest_app_hash,
            earliest_block_height: intValue(BigInt(s.earliest_block_height)),
            catching_up: s.catching_up,
            node_id: status.node_info.id,
            moniker: status.node_info.moniker,
            version: status.node_info.version,
          },
          { warnings, includeRaw: deps.includeRaw, raw: { status } },
        );
      },
    }),
  ];
}
