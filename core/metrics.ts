/**
 * The host's metrics service as plugins see it (`ctx.resolve(CoreTokens.metrics)`): gauges
 * whose values are read at scrape time, so a plugin reports state it already keeps (queue
 * depth, indexed height) without pushing on every change. The host serves them on `/metrics`
 * (Prometheus text) when the `metrics` server is configured; otherwise they are never read.
 */
export interface MetricsRegistrar {
  /** Registers a gauge; a second metric with the same name is refused. Call in register() or init(). */
  addGauge(gauge: GaugeCollector): void;
}

export interface GaugeCollector {
  /** Prometheus name: `[a-zA-Z_:][a-zA-Z0-9_:]*`, conventionally `<plugin>_<what>_<unit>`, e.g. `bds_indexed_height`. */
  name: string;
  help: string;
  /** Label names of the samples `collect` returns (keep their values bounded: no ids, addresses or paths). */
  labelNames?: readonly string[];
  /** Read at every scrape: one number, or one value per label set. A throw leaves the gauge empty for that scrape. */
  collect(): GaugeValue | Promise<GaugeValue>;
}

export type GaugeValue = number | readonly GaugeSample[];

export interface GaugeSample {
  labels: Readonly<Record<string, string>>;
  value: number;
}
