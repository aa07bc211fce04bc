import type { DexContracts } from './dex-state.js';

/**
 * The DEX events (dex.md §3.3, §4.1, §6): what `dex_wait_live_event` accepts for the known DEX
 * contracts and the sources `dex_list_events` reads when no contract/event is given.
 */

export const PAIRS_EVENTS = ['PairCreated', 'LpTokenRegistered', 'Mint', 'Burn', 'Swap', 'Sync'] as const;
export const ROUTER_EVENTS = ['ZeroFeeTraderUpdated'] as const;
/** LP tokens (XSC001) emit these; an LP contract needs an explicit event in dex_list_events. */
export const LP_TOKEN_EVENTS = ['Transfer', 'Approve', 'Mint', 'Burn'] as const;

export interface EventSource {
  contract: string;
  event: string;
}

/** Declared events of the known DEX contracts; null for other contracts (any event name). */
export function declaredEvents(contracts: DexContracts, contract: string): readonly string[] | null {
  if (contract === contracts.pairs) return PAIRS_EVENTS;
  if (contract === contracts.router) return ROUTER_EVENTS;
  if (contract === contracts.helper) return [];
  return null;
}

/** The sources `dex_list_events` reads for an optional contract and event. */
export function eventSources(contracts: DexContracts, contract?: string, event?: string): EventSource[] | { error: string } {
  if (contract === undefined) {
    if (event !== undefined) {
      const sources: EventSource[] = [];
      if ((PAIRS_EVENTS as readonly string[]).includes(event)) sources.push({ contract: contracts.pairs, event });
      if ((ROUTER_EVENTS as readonly string[]).includes(event)) sources.push({ contract: contracts.router, event });
      if (!sources.length) return { error: `${event} is not a DEX event; DEX events are ${[...PAIRS_EVENTS, ...ROUTER_EVENTS].join(', ')} (give contract for other contracts' events)` };
      return sources;
    }
    return [...PAIRS_EVENTS.map((e) => ({ contract: contracts.pairs, event: e })), ...ROUTER_EVENTS.map((e) => ({ contract: contracts.router, event: e }))];
  }
  const declared = declaredEvents(contracts, contract);
  if (declared !== null) {
    if (declared.length === 0) return { error: `${contract} emits no events` };
    if (event === undefined) return declared.map((e) => ({ contract, event: e }));
    if (!declared.includes(event)) return { error: `${contract} emits ${declared.join(', ')}, not ${event}` };
    return [{ contract, event }];
  }
  if (event === undefined) return { error: `give event for contract ${contract} (an LP token emits ${LP_TOKEN_EVENTS.join(', ')})` };
  return [{ contract, event }];
}
