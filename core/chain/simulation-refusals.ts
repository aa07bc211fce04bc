import type { CounterDefinition, MetricsRegistrar } from '../metrics.js';

/**
 * `chainhost_simulate_refusals_total{source, reason}`: dry runs refused or aborted, counted where
 * each refusal is decided (spec §5.7 caps, simulate.md §3). Every layer that refuses registers
 * the same definition, so with the devnet, the simulate plugin and the dashboard in one host
 * they share one counter; each counts only its own refusals, so a refusal is never counted twice.
 */
export type SimulationRefusalSource =
  /** The devnet node's `simulate_tx` (simulation_enabled, _max_concurrency, _timeout_ms, _max_chi). */
  | 'node'
  /** The simulate plugin's caps in front of the node (rate, queue, timeout). */
  | 'simulate'
  /** The dashboard's `/api/abci_query/simulate_tx` guard. */
  | 'dashboard'
  /** The caps in front of the dry run before every send (wallet and DEX submissions, one per node). */
  | 'submit';

export type SimulationRefusalReason =
  | 'disabled'
  | 'capacity'
  | 'rate_limited'
  | 'timeout'
  | 'payload_too_large'
  | 'invalid_payload'
  | 'chi_exhausted'
  | 'error';

export const SIMULATION_REFUSAL_SOURCES: readonly SimulationRefusalSource[] = ['node', 'simulate', 'dashboard', 'submit'];
export const SIMULATION_REFUSAL_REASONS: readonly SimulationRefusalReason[] = [
  'disabled', 'capacity', 'rate_limited', 'timeout', 'payload_too_large', 'invalid_payload', 'chi_exhausted', 'error',
];

export const SIMULATION_REFUSALS: CounterDefinition = {
  name: 'chainhost_simulate_refusals_total',
  help: 'Dry runs (simulate_tx) refused or aborted, by the layer that refused and the reason',
  labelNames: ['source', 'reason'],
  labelValues: { source: SIMULATION_REFUSAL_SOURCES, reason: SIMULATION_REFUSAL_REASONS },
};

export type CountRefusal<R extends SimulationRefusalReason = SimulationRefusalReason> = (reason: R) => void;

/**
 * The counting function of one layer: registers the shared counter and shows the reasons this
 * layer can refuse for at 0 from the start.
 */
export function simulationRefusalCounter<R extends SimulationRefusalReason>(
  metrics: MetricsRegistrar,
  source: SimulationRefusalSource,
  reasons: readonly R[],
): CountRefusal<R> {
  const counter = metrics.addCounter(SIMULATION_REFUSALS);
  for (const reason of reasons) counter.inc({ source, reason }, 0);
  return (reason) => counter.inc({ source, reason });
}
