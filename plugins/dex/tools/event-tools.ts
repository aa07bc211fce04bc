import { z } from 'zod';
import { addressSchema, ApiError, defineTool, type ToolDefinition, txHashSchema } from 'chainhost/plugin';
import { declaredEvents, eventSources } from '../dex-events.js';
import type { DexServices } from '../dex-services.js';
import { listIndexedEvents } from '../event-history.js';
import { waitForLiveEvents } from '../live-events.js';
import { tokenSchema } from './dex-schemas.js';

/**
 * DEX events, live and indexed. The pattern for consumers that must not miss events (also
 * across their own restarts): keep a cursor `after_id` (persisted), and loop
 *   1. start `dex_wait_live_event` (low latency wake-up; may miss events),
 *   2. when it returns (events or timeout), call `dex_list_events` with the saved `after_id`
 *      and process every item — the indexed history is authoritative,
 *   3. save `next_after_id`.
 * Anything the live wait missed (disconnect, restart, events before the wait) comes back in
 * step 2 once BDS has indexed its block.
 */

const eventNameSchema = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'must be an event name such as Swap').describe('event name, e.g. Swap');

export function eventTools(dex: DexServices): ToolDefinition[] {
  return [
    defineTool({
      name: 'dex_wait_live_event',
      title: 'Wait for a live DEX event',
      description: 'Waits (at most timeout_seconds ≤ 120) on the node\'s WebSocket Tx stream for up to max_events (≤ 50) events `event` of `contract`, optionally only from one tx_hash, signer or caller. Low latency and needs no BDS — but NOT durable: no replay cursor; events before the call or during a disconnect or restart are missed, so start the wait before the activity. For no-miss consumption combine it with dex_list_events and its after_id cursor. Sends MCP progress every second (pass a progressToken with resetTimeoutOnProgress to wait past the client\'s request timeout); cancelling ends the wait.',
      capability: 'read',
      timeoutMs: 125_000,
      hints: { idempotentHint: false },
      input: z.object({
        contract: tokenSchema('contract that emits the event (con_pairs for Swap, Mint, Burn, Sync, PairCreated, LpTokenRegistered; con_dex for ZeroFeeTraderUpdated)'),
        event: eventNameSchema,
        timeout_seconds: z.number().gt(0).max(120).default(30).describe('how long to wait, 0 < t ≤ 120 (default 30)'),
        max_events: z.number().int().min(1).max(50).default(1).describe('return after this many events (1-50, default 1)'),
        tx_hash: txHashSchema.optional(),
        signer: addressSchema.optional(),
        caller: z.string().min(1).max(255).optional().describe('the direct caller (an account or a contract such as con_dex)'),
      }),
      output: z.object({
        delivery: z.literal('cometbft_websocket'),
        durable: z.literal(false),
        bds_required: z.literal(false),
        timed_out: z.boolean(),
        items: z.array(z.looseObject({ tx_hash: z.string(), block_height: z.number().int(), event: z.string() })),
        count: z.number().int(),
        contract: z.string(),
        event: z.string(),
        filters: z.object({ tx_hash: z.string().nullable(), signer: z.string().nullable(), caller: z.string().nullable() }),
        warning: z.string(),
      }),
      run: async (args, ctx) => {
        const declared = declaredEvents(dex.reader.contracts, args.contract);
        if (declared && !declared.includes(args.event)) {
          throw ApiError.badRequest(declared.length ? `${args.contract} emits ${declared.join(', ')}, not ${args.event}` : `${args.contract} emits no events`, { field: 'event' });
        }
        const started = performance.now();
        const what = `${args.contract}.${args.event}`;
        // One report a second: the client sees the wait is alive and how long it still runs.
        const ticker = setInterval(() => {
          ctx.progress(`waiting for ${what}: ${Math.round((performance.now() - started) / 1000)} s of ${args.timeout_seconds} s`);
        }, 1_000);
        let result;
        try {
          result = await waitForLiveEvents(dex.node, {
            contract: args.contract, event: args.event, timeoutMs: Math.round(args.timeout_seconds * 1000), maxEvents: args.max_events,
            filters: { txHash: args.tx_hash, signer: args.signer, caller: args.caller }, signal: ctx.signal,
            onSubscribed: () => ctx.progress(`subscribed to the node's Tx stream; waiting for ${what}`),
          });
        } finally {
          clearInterval(ticker);
        }
        return {
          delivery: 'cometbft_websocket' as const,
          durable: false as const,
          bds_required: false as const,
          timed_out: result.timedOut,
          items: result.items.map((i) => ({ ...i })),
          count: result.items.length,
          contract: args.contract,
          event: args.event,
          filters: { tx_hash: args.tx_hash ?? null, signer: args.signer ?? null, caller: args.caller ?? null },
          warning: 'live delivery is best effort: events before this wait, or during a disconnect or restart, are not replayed; use dex_list_events with after_id to reconcile',
        };
      },
    }),
    defineTool({
      name: 'dex_list_events',
      groups: ['indexed'],
      title: 'List indexed DEX events',
      description: 'DEX events from the BDS index in id order after the `after_id` cursor (0 = from the start): every con_pairs and con_dex event unless `contract`/`event` narrow it (an LP-token contract needs `event`). Resume with `next_after_id`: restart safe, nothing skipped or repeated. Rows can lag the chain by a few blocks.',
      capability: 'read',
      input: z.object({
        contract: tokenSchema('contract').optional(),
        event: eventNameSchema.optional(),
        limit: z.number().int().min(1).max(500).default(100).describe('page size'),
        after_id: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0).describe('return events with id greater than this (default 0)'),
      }),
      output: z.object({
        available: z.boolean(),
        items: z.array(z.looseObject({ id: z.number().int() })),
        count: z.number().int(),
        sources: z.array(z.object({ contract: z.string(), event: z.string() })),
        after_id: z.number().int(),
        next_after_id: z.number().int(),
        warnings: z.array(z.string()),
      }),
      run: async (args, ctx) => {
        const sources = eventSources(dex.reader.contracts, args.contract, args.event);
        if ('error' in sources) throw ApiError.badRequest(sources.error, { field: args.contract && !args.event ? 'event' : 'event' });
        const page = await listIndexedEvents(dex, sources, args.limit, args.after_id, ctx.signal);
        return {
          available: true,
          items: page.items,
          count: page.items.length,
          sources,
          after_id: args.after_id,
          next_after_id: page.nextAfterId,
          warnings: page.items.length === 0 ? ['no events after this cursor yet (BDS may still be indexing recent blocks)'] : [],
        };
      },
    }),
  ];
}
