/**
 * Checks of plugin-chosen metric and label names, with messages that say which rule failed
 * (prom-client's own errors do not name the metric).
 */
const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

export function checkMetricName(kind: 'gauge' | 'counter', name: string): void {
  if (typeof name !== 'string' || !METRIC_NAME.test(name)) {
    throw new Error(`${kind} name ${JSON.stringify(name)} is not a Prometheus metric name ([a-zA-Z_:][a-zA-Z0-9_:]*)`);
  }
  if (kind === 'counter' && !name.endsWith('_total')) {
    throw new Error(`counter name "${name}" must end in _total (Prometheus convention for counters)`);
  }
}

export function checkLabelNames(metric: string, labelNames: readonly string[]): void {
  const seen = new Set<string>();
  for (const label of labelNames) {
    if (typeof label !== 'string' || !LABEL_NAME.test(label) || label.startsWith('__')) {
      throw new Error(`metric "${metric}": label name ${JSON.stringify(label)} is not valid ([a-zA-Z_][a-zA-Z0-9_]*, not starting with __)`);
    }
    if (seen.has(label)) throw new Error(`metric "${metric}": label "${label}" is listed twice`);
    seen.add(label);
  }
}
