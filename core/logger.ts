import { redactUrlsIn } from './net/redact-url.js';

/**
 * Logs go to stderr only: in stdio mode stdout belongs to the MCP protocol. Anything that looks
 * like a 64-hex private key in a field named like a secret is redacted before it is written, and
 * so is every URL's credentials (redactUrlsIn).
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  child(scope: string): Logger;
}

const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };
const SECRET_FIELD = /private|secret|token|password|mnemonic|seed|authorization/i;

export function redact(fields: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!fields) return undefined;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) out[k] = SECRET_FIELD.test(k) ? '[redacted]' : v;
  return out;
}

export interface LoggerOptions {
  level?: LogLevel;
  scope?: string;
  write?: (line: string) => void;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? (process.env.CHAIN_LOG_LEVEL as LogLevel | undefined) ?? 'info';
  const min = ORDER[level] ?? ORDER.info;
  const write = options.write ?? ((line: string) => process.stderr.write(line + '\n'));
  const make = (scope: string | undefined): Logger => {
    const emit = (lvl: LogLevel, message: string, fields?: Record<string, unknown>) => {
      if (ORDER[lvl] < min) return;
      const safe = redact(fields);
      const extra = safe && Object.keys(safe).length ? ' ' + JSON.stringify(safe, bigintSafe) : '';
      // A URL in a message or a field (a database's, a node's) never carries its credentials out.
      write(redactUrlsIn(`${new Date().toISOString()} ${lvl.padEnd(5)} ${scope ? `[${scope}] ` : ''}${message}${extra}`));
    };
    return {
      debug: (m, f) => emit('debug', m, f),
      info: (m, f) => emit('info', m, f),
      warn: (m, f) => emit('warn', m, f),
      error: (m, f) => emit('error', m, f),
      child: (s) => make(scope ? `${scope}:${s}` : s),
    };
  };
  return make(options.scope);
}

function bigintSafe(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

export const silentLogger: Logger = {
  debug() {}, info() {}, warn() {}, error() {},
  child() { return silentLogger; },
};
