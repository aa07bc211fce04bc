/**
 * The host's metrics service as plugins see it (`ctx.resolve(CoreTokens.metrics)`):
 * - gauges whose values are read at scrape time, so a plugin reports state it already keeps
 *   (queue depth, indexed height) without pushing on every change;
 * - counters a plugin increments where the event happens (a refusal, a failed write).
 * The host serves them on `/metrics` (Prometheus text) when the `metrics` server is configured;
 * otherwise gauges are never read and counters only add up in memory, so counting is always
 * cheap and safe.
 *
 * Names: `[a-zA-Z_:][a-zA-Z0-9_:]*`, conventionally `<plugin>_<what>_<unit>` (`bds_indexed_height`),
 * counters ending in `_total`. Label names: `[a-zA-Z_][a-zA-Z0-9_]*`, not starting with `__`.
 * Label values must stay bounded: no ids, addresses or paths.
 */
export interface MetricsRegistrar {
  /** Registers a gauge; a second metric with the same name is refused. Call in register() or init(). */
  addGauge(gauge: GaugeCollector): void;
  /**
   * Registers a counter and returns its handle. Registering the same definition again (same
   * name, help and labels) returns the same counter, so plugins that count one thing share one
   * family; any other metric under that name is refused. Call in register() or init().
   */
  addCounter(counter: CounterDefinition): CounterHandle;
}

export interface GaugeCollector {
  name: string;
  help: string;
  /** Label names of the samples `collect` returns (keep their values bounded). */
  labelNames?: readonly string[];
  /** Read at every scrape. A throw leaves the gauge empty for that scrape (and is counted). */
  collect(): GaugeValue | Promise<GaugeValue>;
}

/** One number, one value per label set, or null when the figure is not known right now (no sample). */
export type GaugeValue = number | readonly GaugeSample[] | null;

export interface GaugeSample {
  labels: Readonly<Record<string, string>>;
  value: number;
}

/** The most label sets one counter keeps; later new ones are counted under `(other)` values. */
export const MAX_COUNTER_SERIES = 100;
/** Longer label values are cut to this length. */
export const MAX_LABEL_VALUE_LENGTH = 64;
/** The value a label takes when the given one is outside its allowed list or the series cap. */
export const OTHER_LABEL_VALUE = '(other)';

export interface CounterDefinition {
  /** Ends in `_total`. */
  name: string;
  help: string;
  labelNames?: readonly string[];
  /**
   * The values a label may take; a value outside its list is counted as `(other)`. Labels
   * without a list take any value, within MAX_COUNTER_SERIES label sets.
   */
  labelValues?: Readonly<Record<string, readonly string[]>>;
}

export interface CounterHandle {
  /**
   * Adds `by` (default 1, finite and ≥ 0); `inc(labels, 0)` exposes a series at 0 before its
   * first event, so rates and alerts work from the start. `labels` must name exactly the
   * counter's labels; anything else is a programming error and throws.
   */
  inc(labels?: Readonly<Record<string, string>>, by?: number): void;
}
