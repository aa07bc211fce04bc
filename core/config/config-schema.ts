import { z } from 'zod';

/**
 * The host's part of the config file (cosmiconfig module `chain`) as zod schemas: settings
 * every plugin may read. Environment variables of the spec and command-line flags are layered on
 * top before this validation, so one set of rules (and one error format) covers all three
 * sources. A plugin's own keys live in its schema under `plugins.<name>`, never here.
 */
const port = z.number({ error: 'must be a port number' }).int('must be an integer').min(0, 'must be 0..65535').max(65535, 'must be 0..65535');
const url = z.string().refine((v) => { try { const u = new URL(v); return u.protocol === 'http:' || u.protocol === 'https:'; } catch { return false; } }, 'must be an http(s) URL');

export const toolsHttpSchema = z.strictObject({
  host: z.string().min(1, 'must not be empty').default('127.0.0.1'),
  port: port.default(8100),
  publishHost: z.string().min(1).nullable().default(null),
  token: z.string().min(16, 'must be at least 16 characters').nullable().default(null),
  corsOrigins: z.array(z.string().min(1)).default([]),
  bodyLimitBytes: z.number().int().min(1024, 'must be 1024..16777216').max(16 * 1024 * 1024, 'must be 1024..16777216').default(1024 * 1024),
});

/** The host's Prometheus endpoint (`GET /metrics`); null or absent serves none. */
export const metricsSchema = z.strictObject({
  host: z.string().min(1, 'must not be empty').default('127.0.0.1'),
  /** 9109: an in-process node's own metrics already use 9108. */
  port: port.default(9109),
  /** With CHAIN_PUBLIC_QUERY_ENABLED=1, lets the endpoint bind beyond loopback (containers). */
  publicQuery: z.boolean().default(false),
});

/** A deadline of one plugin phase in milliseconds (10 ms .. 1 hour). */
const phaseDeadline = (fallback: number) => z.number().int('must be an integer').min(10, 'must be 10..3600000').max(3_600_000, 'must be 10..3600000').default(fallback);

/**
 * How long each plugin phase may take. A plugin whose hook has not settled by then fails like
 * one that threw: a required one stops the start with one line naming it and the phase, an
 * optional one is skipped; a stop hook past its deadline is abandoned so the process still exits.
 */
export const pluginTimeoutsSchema = z.strictObject({
  /** Deadline of each plugin's register() (ms). */
  registerMs: phaseDeadline(10_000),
  /** Deadline of each plugin's init() (ms): opening a database, reaching an API. */
  initMs: phaseDeadline(60_000),
  /** Deadline of each plugin's start() (ms). */
  startMs: phaseDeadline(60_000),
  /** Deadline of each plugin's stop() and of each teardown it registered with ctx.onStop (ms). */
  stopMs: phaseDeadline(10_000),
});

/** A tool name or a group of tools (tools.include / tools.exclude). */
const toolSelector = z.string().regex(/^[a-z][a-z0-9_-]{0,63}$/, 'must be a tool name or group such as "wallet", "dex", "indexed" or "read"');

export const configFileSchema = z.strictObject({
  $schema: z.string().optional(),
  home: z.string().min(1, 'must not be empty').default('.chain'),
  chainId: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,49}$/, 'must be 1..50 letters, digits, ".", "_" or "-"').default('chain-local-1'),
  node: z.strictObject({ url: url.default('http://127.0.0.1:26657') }).default({ url: 'http://127.0.0.1:26657' }),
  includeRaw: z.boolean().default(false),
  publicQueryEnabled: z.boolean().default(false),
  tools: z.strictObject({
    stdio: z.boolean().default(false),
    http: toolsHttpSchema.nullable().default(null),
    unsafe: z.boolean().default(false),
    timeoutMs: z.number().int().min(100, 'must be 100..600000').max(600_000, 'must be 100..600000').default(30_000),
    /**
     * Toolsets: which tools are listed and callable — tool names or groups (`read`, `unsafe`, a
     * plugin's name such as `wallet` or `dex`, or a tool group such as `indexed`). Unset: every
     * tool the capability policy allows. A name or group no tool has is a start-up error.
     */
    include: z.array(toolSelector).min(1, 'must name at least one tool or group (leave it out for all tools)').optional(),
    /** Tools or groups left out of what `include` selects (or of all tools). */
    exclude: z.array(toolSelector).default([]),
  }).default({ stdio: false, http: null, unsafe: false, timeoutMs: 30_000, exclude: [] }),
  metrics: metricsSchema.nullable().default(null),
  /**
   * Plugins to load: key = built-in name, relative path or package name; value = that plugin's
   * options, validated (with the environment variables the plugin binds) by its own schema.
   */
  plugins: z.record(z.string().min(1), z.record(z.string(), z.unknown())).default({}),
  /** Plugins whose boot failure is logged and skipped instead of stopping the host. */
  optionalPlugins: z.array(z.string()).default([]),
  /**
   * How long each plugin phase may take (ms). A plugin past its deadline fails like one that
   * threw: a required one stops the start with one line naming it and the phase, an optional one
   * is skipped; a stop hook past it is abandoned, so a hanging plugin never keeps the process alive.
   */
  pluginTimeouts: pluginTimeoutsSchema.prefault({}),
});

export type ConfigFile = z.output<typeof configFileSchema>;
