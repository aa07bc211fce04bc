import 'reflect-metadata';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, type LoadedConfig } from '../../core/config/load-config.js';
import { silentLogger, type Logger } from '../../core/logger.js';
import { Host, type HostOptions } from '../../host/host.js';
import { toolSurfaces, type ToolSurfaceOptions } from '../../host/tools-server/index.js';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The fixture plugin, loaded by absolute path as a config `plugins` key. */
export const FIXTURE_PLUGIN = path.join(REPO_ROOT, 'test/support/fixture-plugin');
/** A valid CHAIN_MCP_HTTP_TOKEN (the schema wants at least 16 characters). */
export const TEST_TOKEN = 'test-token-0123456789abcdef';

/** A config with the fixture plugin and the HTTP tool server on a free loopback port. */
export function fixtureConfig(http: Record<string, unknown> | null = {}, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    plugins: { [FIXTURE_PLUGIN]: {} },
    ...(http ? { tools: { http: { host: '127.0.0.1', port: 0, ...http } } } : {}),
    ...extra,
  };
}

/** Writes `config` as a `.chainrc.json` in a fresh temporary folder. */
export async function writeTempConfig(config: unknown): Promise<{ dir: string; file: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'chainhost-test-'));
  const file = path.join(dir, '.chainrc.json');
  await writeFile(file, JSON.stringify(config, null, 2));
  return { dir, file, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Loads a config the way the commands do, from an in-memory object and an explicit environment (never process.env). */
export async function loadTestConfig(config: unknown, env: Record<string, string> = {}): Promise<LoadedConfig> {
  const tmp = await writeTempConfig(config);
  try {
    return await loadConfig({ configPath: tmp.file, env, cwd: tmp.dir });
  } finally {
    await tmp.remove();
  }
}

export interface TestHost {
  host: Host;
  /** URL on the tools server, e.g. url('/tools'). */
  url(p?: string): string;
  port: number;
  stop(): Promise<void>;
}

export interface BootOptions {
  env?: Record<string, string>;
  surfaces?: ToolSurfaceOptions;
  log?: Logger;
  /** The keystore's passphrase source and scrypt cost (tests keep it low). */
  keystore?: HostOptions['keystore'];
}

/** Boots and starts a Host with the tool surfaces, as chain-host would, on port 0. */
export async function bootTestHost(config: unknown = fixtureConfig(), options: BootOptions = {}): Promise<TestHost> {
  const loaded = await loadTestConfig(config, options.env);
  const host = await Host.create(loaded, { log: options.log ?? silentLogger, surfaces: [toolSurfaces(options.surfaces)], keystore: options.keystore });
  await host.start();
  // A fresh home's BDS creates its PGlite database in the background (its paths answer
  // "initialising" meanwhile); a test starts once it indexes, as a person waits for its "ready" line.
  if (host.pluginNames().includes('bds')) await host.resolve((await import('../../plugins/bds/index.js')).BdsTokens.database).whenIndexing();
  const base = host.serverUrl('tools');
  return {
    host,
    port: base ? Number(new URL(base).port) : 0,
    url: (p = '') => {
      if (!base) throw new Error('this host has no tools server');
      return base + p;
    },
    stop: () => host.stop(),
  };
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  json: any;
}

/**
 * A plain node:http request, so tests control every header (fetch refuses to set Host) and
 * can send bodies fetch would not (huge, malformed).
 */
export function request(url: string, init: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: init.method ?? 'GET', headers: init.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try { json = text ? JSON.parse(text) : undefined; } catch { json = undefined; }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (init.body !== undefined) req.write(init.body);
    req.end();
  });
}

/**
 * POST a JSON value (already serialised when a string). A successful tool call's `{"result": …}`
 * envelope (mcp.md §7.1) is unwrapped into `json`, so callers read the tool's result as before;
 * `text` stays the body as sent. Tests of the envelope itself use `request`.
 */
export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<RawResponse> {
  const res = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const isToolCall = /^\/tools\/[^/]+$/.test(new URL(url).pathname);
  if (isToolCall && res.status === 200 && typeof res.json === 'object' && res.json !== null && 'result' in res.json) {
    return { ...res, json: (res.json as { result: unknown }).result };
  }
  return res;
}
