import type Koa from 'koa';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { CounterDefinition, CounterHandle, GaugeCollector } from '../../core/metrics.js';
import { BoundedCounter } from './bounded-counter.js';
import { checkLabelNames, checkMetricName } from './metric-names.js';

/**
 * The host's Prometheus figures, in a Registry of its own (never prom-client's global one, so
 * two hosts in one process — tests, benches — keep separate counts). Core-free on purpose:
 * it knows tool calls, HTTP requests and gauges only by plain values.
 *
 * Every label value is bounded: tool names the host knows (anything else is `(unknown)`),
 * route patterns (never raw paths), a fixed set of transports and outcomes.
 */
export interface ToolCallFigure {
  tool: string;
  transport: string;
  outcome: 'ok' | 'error';
  durationMs: number;
}

export interface HostMetricsOptions {
  /** Node.js process figures (CPU, memory, event loop lag, GC): on when the metrics server is served. */
  processMetrics?: boolean;
}

/** A request no route pattern matched (404s, 405s, guards that answered first). */
export const UNMATCHED_ROUTE = '(unmatched)';
/** A tool name no plugin contributed: callers choose it, so it is not a label value. */
export const UNKNOWN_TOOL = '(unknown)';

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export class HostMetrics {
  readonly registry = new Registry();
  private readonly toolCalls: Counter<'tool' | 'transport' | 'outcome'>;
  private readonly toolLatency: Histogram<'tool' | 'outcome'>;
  private readonly httpRequests: Counter<'server' | 'route' | 'method' | 'status'>;
  private readonly httpLatency: Histogram<'server' | 'route'>;
  private readonly rateLimited: Counter<'server'>;
  private readonly collectErrors: Counter<'metric'>;
  private readonly pluginCounters = new Map<string, BoundedCounter>();

  constructor(options: HostMetricsOptions = {}) {
    const registers = [this.registry];
    this.toolCalls = new Counter({ name: 'chainhost_tool_calls_total', help: 'Tool calls by tool, transport and outcome', labelNames: ['tool', 'transport', 'outcome'], registers });
    this.toolLatency = new Histogram({ name: 'chainhost_tool_call_duration_seconds', help: 'Tool call latency (policy, validation, run, output check)', labelNames: ['tool', 'outcome'], buckets: LATENCY_BUCKETS, registers });
    this.httpRequests = new Counter({ name: 'chainhost_http_requests_total', help: 'HTTP requests by server, route pattern, method and status', labelNames: ['server', 'route', 'method', 'status'], registers });
    this.httpLatency = new Histogram({ name: 'chainhost_http_request_duration_seconds', help: 'HTTP request latency by server and route pattern', labelNames: ['server', 'route'], buckets: LATENCY_BUCKETS, registers });
    this.rateLimited = new Counter({ name: 'chainhost_http_rate_limited_total', help: 'Requests and WebSocket upgrades refused with 429, by server', labelNames: ['server'], registers });
    this.collectErrors = new Counter({ name: 'chainhost_metrics_collect_errors_total', help: 'Scrapes in which a registered gauge failed to collect', labelNames: ['metric'], registers });
    if (options.processMetrics) collectDefaultMetrics({ register: this.registry });
  }

  /** One finished tool call; `tool` must already be bounded (see UNKNOWN_TOOL). */
  recordToolCall(figure: ToolCallFigure): void {
    this.toolCalls.inc({ tool: figure.tool, transport: figure.transport, outcome: figure.outcome });
    this.toolLatency.observe({ tool: figure.tool, outcome: figure.outcome }, figure.durationMs / 1000);
  }

  /** A refusal with 429 outside the koa pipeline (a WebSocket upgrade). */
  recordRateLimited(server: string): void {
    this.rateLimited.inc({ server });
  }

  /**
   * Koa middleware for one server, outermost so it sees the final status after the error
   * shape is applied. The route label is the matched pattern (`/tools/:name`), never the path.
   */
  httpMiddleware(server: string): Koa.Middleware {
    return async (ctx, next) => {
      const started = performance.now();
      try {
        await next();
      } finally {
        const matched = (ctx as { _matchedRoute?: string | RegExp })._matchedRoute;
        this.recordHttpRequest(server, matched === undefined ? UNMATCHED_ROUTE : String(matched), ctx.method, ctx.status, performance.now() - started);
      }
    };
  }

  /** One answered request; `route` must be a pattern (see UNMATCHED_ROUTE), never a raw path. */
  recordHttpRequest(server: string, route: string, method: string, status: number, durationMs: number): void {
    this.httpRequests.inc({ server, route, method: boundedMethod(method), status: String(status) });
    this.httpLatency.observe({ server, route }, durationMs / 1000);
    if (status === 429) this.rateLimited.inc({ server });
  }

  /**
   * A gauge read at scrape time; a failing collector empties that gauge for the scrape and is
   * counted, a null value leaves it without a sample (the figure is not known yet).
   */
  addGauge(definition: GaugeCollector): void {
    checkMetricName('gauge', definition.name);
    checkLabelNames(definition.name, definition.labelNames ?? []);
    this.refuseTaken(definition.name, 'gauge');
    const collectErrors = this.collectErrors;
    const unlabelled = !definition.labelNames?.length;
    new Gauge({
      name: definition.name,
      help: definition.help,
      labelNames: [...(definition.labelNames ?? [])],
      registers: [this.registry],
      async collect() {
        // No sample unless collect() gives one (reset() alone leaves an unlabelled gauge at 0).
        const clear = () => {
          this.reset();
          if (unlabelled) this.remove();
        };
        clear();
        try {
          const value = await definition.collect();
          if (value === null) return;
          if (typeof value === 'number') this.set(value);
          else for (const sample of value) this.set({ ...sample.labels }, sample.value);
        } catch {
          clear();
          collectErrors.inc({ metric: definition.name });
        }
      },
    });
  }

  /** A plugin's counter; the same definition registered twice (by two plugins) is one counter. */
  addCounter(definition: CounterDefinition): CounterHandle {
    const existing = this.pluginCounters.get(definition.name);
    if (existing) {
      const again = new BoundedCounter(definition, new Registry());
      if (again.signature === existing.signature) return existing;
      throw new Error(`metric "${definition.name}" is registered twice with different help or labels; counter names must be unique in a host unless the definition is the same`);
    }
    this.refuseTaken(definition.name, 'counter');
    const counter = new BoundedCounter(definition, this.registry);
    this.pluginCounters.set(definition.name, counter);
    return counter;
  }

  private refuseTaken(name: string, kind: 'gauge' | 'counter'): void {
    if (this.registry.getSingleMetric(name)) {
      throw new Error(`metric "${name}" is registered twice; ${kind} names must be unique in a host (prefix them with the plugin name)`);
    }
  }

  /** The Prometheus text exposition of every figure. */
  scrape(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Node accepts dozens of methods; anything unusual is one label value. */
function boundedMethod(method: string): string {
  return METHODS.has(method) ? method : 'OTHER';
}
