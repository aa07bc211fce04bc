import { redactUrlsIn } from '../net/redact-url.js';
import type { z } from 'zod';
import { BootError } from '../errors.js';
import { describeValue, findOrigin, friendly, getPath, setPath, type Origin } from './config-values.js';
import { checkEnvBindings, convertEnvValue } from './environment.js';
import type { LoadedConfig } from './load-config.js';

/** What the kernel reads of a plugin to build its options. */
export interface PluginOptionsSource {
  name: string;
  config?: z.ZodType;
  env?: unknown;
}

/**
 * One plugin's options: its `plugins.<key>` value from the config file, then the environment
 * variables the plugin binds (`env`), then the command-line flags that name its keys, validated
 * with the plugin's own schema. An error names the variable when one set the value, else
 * `plugins.<key>.<path>`.
 */
export function parsePluginOptions(key: string, plugin: PluginOptionsSource, config: Pick<LoadedConfig, 'file' | 'env' | 'flags'>): unknown {
  const bindings = checkEnvBindings(plugin.name, plugin.env);
  const written = config.file.plugins[key];
  const value: Record<string, unknown> = written === undefined ? {} : structuredClone(written);
  const origins = new Map<string, Origin>();
  const flagged = Object.keys(config.flags).filter((f) => config.flags[f] !== undefined);
  for (const binding of bindings) {
    const raw = config.env[binding.variable];
    if (raw === undefined || raw === '') continue;
    const dotted = ['plugins', key, ...binding.path].join('.');
    // Flags were applied to the file's value already and win over the environment.
    if (flagged.some((f) => f === dotted || f.startsWith(dotted + '.') || dotted.startsWith(f + '.'))) continue;
    setPath(value, binding.path, convertEnvValue(binding, raw));
    origins.set(binding.path.join('.'), { label: binding.variable, shown: binding.secret ? '[redacted]' : redactUrlsIn(raw) });
  }
  if (!plugin.config) return value;
  const parsed = plugin.config.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const p = issue.path.map(String);
  const origin = findOrigin(p, origins);
  if (origin) throw new BootError('config_invalid', `${origin.label}=${origin.shown}: ${friendly(issue)}`);
  const shown = p.length ? describeValue(getPath(value, p)) : describeValue(written);
  throw new BootError('config_invalid', `${['plugins', key, ...p].join('.')}=${shown}: ${friendly(issue)}`);
}
