import { Counter, type Registry } from 'prom-client';
import { MAX_COUNTER_SERIES, MAX_LABEL_VALUE_LENGTH, OTHER_LABEL_VALUE, type CounterDefinition, type CounterHandle } from '../../core/metrics.js';
import { checkLabelNames, checkMetricName } from './metric-names.js';

/**
 * A plugin's counter (core/metrics.ts): a prom-client Counter whose label values cannot grow
 * without bound — values outside a label's allowed list, and new label sets beyond
 * MAX_COUNTER_SERIES, are counted under `(other)`; long values are cut.
 */
export class BoundedCounter implements CounterHandle {
  /** Identifies the definition, so a second registration of the same one can share this counter. */
  readonly signature: string;
  readonly name: string;
  private readonly counter: Counter<string>;
  private readonly labelNames: readonly string[];
  private readonly allowed: ReadonlyMap<string, ReadonlySet<string>>;
  private readonly series = new Set<string>();

  constructor(definition: CounterDefinition, registry: Registry) {
    checkMetricName('counter', definition.name);
    const labelNames = [...(definition.labelNames ?? [])];
    checkLabelNames(definition.name, labelNames);
    const allowed = new Map<string, ReadonlySet<string>>();
    for (const [label, values] of Object.entries(definition.labelValues ?? {})) {
      if (!labelNames.includes(label)) throw new Error(`counter "${definition.name}": labelValues names "${label}", which is not one of its labelNames`);
      allowed.set(label, new Set(values.map((v) => String(v).slice(0, MAX_LABEL_VALUE_LENGTH))));
    }
    this.name = definition.name;
    this.labelNames = labelNames;
    this.allowed = allowed;
    this.signature = JSON.stringify([definition.help, labelNames, labelNames.map((l) => [...(allowed.get(l) ?? [])].sort())]);
    this.counter = new Counter({ name: definition.name, help: definition.help, labelNames, registers: [registry] });
  }

  inc(labels: Readonly<Record<string, string>> = {}, by = 1): void {
    if (typeof by !== 'number' || !Number.isFinite(by) || by < 0) {
      throw new RangeError(`counter "${this.name}": increment must be a finite number ≥ 0, got ${String(by)}`);
    }
    this.counter.inc(this.bound(labels), by);
  }

  private bound(labels: Readonly<Record<string, string>>): Record<string, string> {
    const given = Object.keys(labels);
    const unknown = given.find((l) => !this.labelNames.includes(l));
    const missing = this.labelNames.find((l) => !(l in labels));
    if (unknown !== undefined || missing !== undefined || given.length !== this.labelNames.length) {
      throw new TypeError(`counter "${this.name}" takes exactly the labels [${this.labelNames.join(', ')}], got [${given.join(', ')}]`);
    }
    const out: Record<string, string> = {};
    for (const label of this.labelNames) {
      const value = String(labels[label]).slice(0, MAX_LABEL_VALUE_LENGTH);
      const allowed = this.allowed.get(label);
      out[label] = allowed && !allowed.has(value) ? OTHER_LABEL_VALUE : value;
    }
    if (!this.labelNames.length) return out;
    const key = JSON.stringify(this.labelNames.map((l) => out[l]));
    if (this.series.has(key)) return out;
    if (this.series.size >= MAX_COUNTER_SERIES) {
      for (const label of this.labelNames) out[label] = OTHER_LABEL_VALUE;
      return out;
    }
    this.series.add(key);
    return out;
  }
}
