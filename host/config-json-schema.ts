import { z } from 'zod';
import { configFileSchema } from '../core/config/config-schema.js';
import { BUILTIN_PLUGINS } from './builtin-plugins.js';

/**
 * The JSON Schema of the config file, generated from the same zod schemas the host validates
 * with: the host keys plus every built-in plugin's options under `plugins.<name>`.
 */
export async function configJsonSchema(): Promise<Record<string, unknown>> {
  const schema = z.toJSONSchema(configFileSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, any>;
  const pluginProps: Record<string, unknown> = {};
  for (const [name, load] of Object.entries(BUILTIN_PLUGINS).sort(([a], [b]) => a.localeCompare(b))) {
    const plugin = await load();
    const options = plugin.config
      ? z.toJSONSchema(plugin.config as z.ZodType, { io: 'input', unrepresentable: 'any' })
      : { type: 'object', additionalProperties: false };
    delete (options as Record<string, unknown>).$schema;
    pluginProps[name] = { description: plugin.description, ...options };
  }
  schema.title = 'chainhost configuration (.chainrc.json)';
  schema.properties.plugins = {
    description: 'Plugins to load: a built-in name, a relative path or a package name, each mapped to that plugin\'s options.',
    type: 'object',
    properties: pluginProps,
    additionalProperties: { type: 'object' },
  };
  return schema;
}

export async function configJsonSchemaText(): Promise<string> {
  return JSON.stringify(await configJsonSchema(), null, 2) + '\n';
}
