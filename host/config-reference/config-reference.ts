import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { configFileSchema } from '../../core/config/config-schema.js';
import { HOST_ENV_BINDINGS, type EnvBinding } from '../../core/config/environment.js';
import type { AnyPlugin } from '../../core/plugin.js';
import { BUILTIN_PLUGINS } from '../builtin-plugins.js';
import { packageRoot } from '../package-root.js';
import { KEY_NOTES } from './key-notes.js';
import { schemaKeyComments } from './schema-comments.js';

/**
 * docs/configuration.md, generated (`npm run schema`) from what the host validates with: the
 * zod schemas of the config file and of every built-in plugin (types, defaults, ranges,
 * patterns), the doc comments next to their keys (descriptions, KEY_NOTES where a key has
 * none) and the environment bindings of the host (HOST_ENV_BINDINGS) and of every built-in
 * plugin (its `env`): which variable overrides which key.
 */
export const CONFIG_REFERENCE_PATH = 'docs/configuration.md';

type JsonSchema = Record<string, any>;

/** One documented key: its dotted path and the JSON Schema of its value. */
export interface ConfigKey {
  path: string;
  schema: JsonSchema;
  description: string | undefined;
}

export interface SchemaSection {
  /** Dotted prefix of every key, e.g. `plugins.devnet.` ('' for the host's keys). */
  prefix: string;
  keys: ConfigKey[];
}

/** Variables read outside any binding (not config keys, or one command's own). */
const OTHER_VARIABLES: ReadonlyArray<[string, string]> = [
  ['CHAIN_LOG_LEVEL', '`debug`, `info` (default), `warn` or `error`: the lowest level of the log lines written to stderr.'],
  ['CHAIN_KEYSTORE_PASSPHRASE_FILE', 'a file holding the keystore passphrase (docs/keystore.md), readable by its owner only: one its group or others can read is refused with the `chmod 600` to run; one trailing line break is not part of the passphrase. The printed stdio `mcpServers` snippet names this file, never the passphrase.'],
  ['CHAIN_KEYSTORE_PASSPHRASE', 'the keystore passphrase itself (docs/keystore.md), never printed; prefer `CHAIN_KEYSTORE_PASSPHRASE_FILE`, and set only one of the two. Without either, a host that signs by `account` starts with the keystore locked (a terminal is asked instead).'],
];

const TYPE_NOTES: Record<EnvBinding['type'], string> = {
  string: 'text',
  integer: 'integer',
  flag: 'flag',
  list: 'comma-separated list',
};

function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

/** The keys of one schema, parents before children; descriptions from the source comments, else KEY_NOTES. */
export function sectionOf(schema: JsonSchema, prefix: string, comments: ReadonlyMap<string, string>): SchemaSection {
  const keys: ConfigKey[] = [];
  const walk = (node: JsonSchema, at: string) => {
    for (const [key, child] of Object.entries<JsonSchema>(objectOf(node)?.properties ?? {})) {
      const local = at + key;
      keys.push({ path: prefix + local, schema: child, description: comments.get(local) ?? child.description ?? KEY_NOTES[prefix + local] });
      walk(child, `${local}.`);
    }
  };
  walk(schema, '');
  return { prefix, keys };
}

/** The object form of a node (itself, or the object member of a nullable union). */
function objectOf(node: JsonSchema): JsonSchema | undefined {
  if (node.type === 'object' && node.properties) return node;
  return (node.anyOf as JsonSchema[] | undefined)?.find((m) => m.type === 'object' && m.properties);
}

export async function hostSection(root = packageRoot()): Promise<SchemaSection> {
  const schema = jsonSchemaOf(configFileSchema);
  const comments = schemaKeyComments(path.join(root, 'core/config/config-schema.ts'), Object.keys(schema.properties));
  return sectionOf(schema, '', comments);
}

/** A built-in plugin's options; the comments come from `plugins/<name>/<name>.config.ts` when it has any keys. */
export async function pluginSection(name: string, plugin: AnyPlugin, root = packageRoot()): Promise<SchemaSection> {
  const schema: JsonSchema = plugin.config ? jsonSchemaOf(plugin.config) : { type: 'object', properties: {} };
  const keys = Object.keys(schema.properties ?? {});
  const file = path.join(root, 'plugins', name, `${name}.config.ts`);
  const comments = keys.length ? schemaKeyComments(existsSync(file) ? file : missingSource(name, file), keys) : new Map<string, string>();
  return sectionOf(schema, `plugins.${name}.`, comments);
}

function missingSource(name: string, file: string): never {
  throw new Error(`plugin "${name}" has options but no ${path.relative(packageRoot(), file)} to read their descriptions from`);
}

export async function builtinPlugins(): Promise<Array<[string, AnyPlugin]>> {
  const entries = Object.entries(BUILTIN_PLUGINS).sort(([a], [b]) => a.localeCompare(b));
  return Promise.all(entries.map(async ([name, load]) => [name, await load()] as [string, AnyPlugin]));
}

// ---- rendering -----------------------------------------------------------------------------

const UNBOUNDED = Number.MAX_SAFE_INTEGER;

function code(text: string): string {
  return text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
}

export function typeOf(node: JsonSchema): string {
  if (node.anyOf) return [...new Set((node.anyOf as JsonSchema[]).map(typeOf))].join(' or ');
  if (node.const !== undefined) return code(JSON.stringify(node.const));
  switch (node.type) {
    case 'array':
      return node.items ? `array of ${typeOf(node.items)}` : 'array';
    case 'object':
      if (node.properties) return 'object';
      if (node.additionalProperties && typeof node.additionalProperties === 'object' && Object.keys(node.additionalProperties).length) {
        return `map of ${typeOf(node.additionalProperties)}`;
      }
      return 'object';
    case undefined:
      return 'any';
    default:
      return String(node.type);
  }
}

/** Ranges, lengths, patterns and enums, as one short phrase. */
export function allowedOf(node: JsonSchema): string {
  if (node.anyOf) return (node.anyOf as JsonSchema[]).filter((m) => m.type !== 'null').map(allowedOf).filter(Boolean).join('; or ');
  const parts: string[] = [];
  if (node.enum) parts.push((node.enum as unknown[]).map((v) => code(JSON.stringify(v))).join(', '));
  const min = node.minimum;
  const max = node.maximum;
  const hasMin = min !== undefined && Math.abs(min) !== UNBOUNDED;
  const hasMax = max !== undefined && Math.abs(max) !== UNBOUNDED;
  if (hasMin && hasMax) parts.push(`${min}..${max}`);
  else if (hasMin) parts.push(`≥ ${min}`);
  else if (hasMax) parts.push(`≤ ${max}`);
  if (node.exclusiveMinimum !== undefined) parts.push(`> ${node.exclusiveMinimum}`);
  if (node.exclusiveMaximum !== undefined) parts.push(`< ${node.exclusiveMaximum}`);
  if (node.minLength !== undefined && node.maxLength !== undefined) parts.push(`length ${node.minLength}..${node.maxLength}`);
  else if (node.minLength !== undefined) parts.push(node.minLength === 1 ? 'not empty' : `at least ${node.minLength} characters`);
  else if (node.maxLength !== undefined) parts.push(`at most ${node.maxLength} characters`);
  if (node.pattern) parts.push(`matches ${code(node.pattern)}`);
  if (node.type === 'array' && node.items) {
    const items = allowedOf(node.items);
    if (items) parts.push(`each ${items}`);
  }
  return parts.join(', ');
}

export function defaultOf(node: JsonSchema): string {
  if (!('default' in node)) return '—';
  const value = node.default;
  // An object default (`{}` included) only fills in its keys' own defaults, listed below it.
  if (value !== null && typeof value === 'object' && !Array.isArray(value) && node.properties) return 'see its keys';
  return code(JSON.stringify(value));
}

/** Markdown text with `<…>` outside code spans shown as written instead of read as HTML. */
export function prose(text: string): string {
  return text.split(/(`[^`]*`)/).map((part, i) => (i % 2 ? part : part.replace(/</g, '&lt;').replace(/>/g, '&gt;'))).join('');
}

function listOf(names: readonly string[]): string {
  const quoted = names.map((n) => code(n));
  return quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} and ${quoted[quoted.length - 1]}` : quoted[0]!;
}

/** A binding with its full config path, and the plugin that declares it (none: the host's). */
export interface DocumentedBinding {
  binding: EnvBinding;
  key: string;
  plugin?: string;
}

/** The host's bindings, then each built-in plugin's, with their paths as written in a config file. */
export function documentedBindings(plugins: ReadonlyArray<[string, AnyPlugin]>): DocumentedBinding[] {
  return [
    ...HOST_ENV_BINDINGS.map((binding) => ({ binding, key: binding.path.join('.') })),
    ...plugins.flatMap(([name, plugin]) => (plugin.env ?? []).map((binding) => ({ binding, key: ['plugins', name, ...binding.path].join('.'), plugin: name }))),
  ];
}

function keyTable(section: SchemaSection, bindings: readonly DocumentedBinding[] | null): string[] {
  const withVariables = bindings !== null;
  const head = withVariables ? '| Key | Type | Default | Allowed | Variable | Description |' : '| Key | Type | Default | Allowed | Description |';
  const lines = [head, head.replace(/[^|]+/g, '---')];
  for (const key of section.keys) {
    const local = key.path.slice(section.prefix.length);
    const row = [code(local), typeOf(key.schema), defaultOf(key.schema), allowedOf(key.schema) || '—'];
    if (withVariables) {
      const found = bindings!.filter((b) => b.key === key.path).map((b) => code(b.binding.variable));
      row.push(found.join(', ') || '—');
    }
    row.push(prose(key.description ?? ''));
    lines.push(`| ${row.map(cell).join(' | ')} |`);
  }
  return lines;
}

export async function configReferenceMarkdown(root = packageRoot()): Promise<string> {
  const host = await hostSection(root);
  const plugins = await builtinPlugins();
  const out: string[] = [
    '# Configuration reference',
    '',
    '<!-- Generated by `npm run schema` (host/bin/write-config-schema.ts) from the zod schemas in',
    '     core/config/ and plugins/*/*.config.ts, the doc comments next to their keys and the',
    '     environment bindings (HOST_ENV_BINDINGS in core/config/environment.ts, each plugin\'s `env`).',
    '     Do not edit: change the schema, its comment or the binding and regenerate;',
    '     test/docs/configuration-doc.test.ts fails while this file is out of date. -->',
    '',
    'A command reads its configuration from, lowest precedence first:',
    '',
    '1. the config file: `--config <file>`, else the first of `.chainrc`, `.chainrc.json`, `chain.config.js` or',
    '   the `"chain"` key of `package.json` found in the working directory (cosmiconfig module `chain`);',
    '2. the environment variables below;',
    '3. the command\'s flags (`chain-<command> --help` lists them).',
    '',
    'Everything is validated at start, and an error names the key or variable, the value and what was',
    'expected, for example `CHAIN_MCP_DEX_PLAN_TTL_SECONDS=5: must be 30..900`. Unknown keys are errors.',
    '`chainrc.schema.json` is the same schema as JSON Schema (`"$schema": "./chainrc.schema.json"` gives',
    'editors completion); `chainrc.example.json` runs the whole stack.',
    '',
    '## Environment variables',
    '',
    '| Variable | Config key | Type | Notes |',
    '|---|---|---|---|',
  ];
  const bindings = documentedBindings(plugins);
  for (const { binding, key, plugin } of bindings) {
    const notes: string[] = [];
    if (plugin) notes.push(`only while the \`${plugin}\` plugin is loaded`);
    if (binding.path[0] === 'tools' && binding.path[1] === 'http') notes.push('only when the command or the config enables the HTTP tool server');
    if (binding.secret) notes.push('secret: never printed, shown as `[redacted]` in errors');
    out.push(`| ${code(binding.variable)} | ${code(key)} | ${TYPE_NOTES[binding.type]} | ${notes.join('; ') || '—'} |`);
  }
  out.push(
    '',
    'A plugin declares its own variables (`env` in its definition, see docs/plugin-authoring.md); several',
    'plugins may read one variable, each into its own options.',
    '',
    'An empty variable counts as unset. A flag is true for `1`, `true`, `yes` or `on` and false for `0`,',
    '`false`, `no` or `off` (any case); anything else is an error. Defaults and allowed values are those',
    'of the config key.',
    '',
    'Also read, outside the config file:',
    '',
    '| Variable | Meaning |',
    '|---|---|',
    ...OTHER_VARIABLES.map(([variable, meaning]) => `| ${code(variable)} | ${cell(prose(meaning))} |`),
    '',
    '## Host keys',
    '',
    'Every plugin can read these (`ctx.settings`).',
    '',
    ...keyTable(host, bindings),
    '',
    '## Plugins',
    '',
    '`plugins` maps each plugin to load to its options: a built-in name below, a path relative to the',
    'config file, or a package name. A plugin\'s options are validated by its own schema, and errors',
    'name `plugins.<name>.<key>`. `optionalPlugins` lists plugins whose boot failure is logged and',
    'skipped instead of stopping the host; a phase that passes its `pluginTimeouts` deadline (init and',
    'start 60 s, register and stop 10 s by default) is such a failure. Keys below are relative to',
    '`plugins.<name>`.',
  );
  for (const [name, plugin] of plugins) {
    const section = await pluginSection(name, plugin, root);
    out.push('', `### \`plugins.${name}\``, '', prose(plugin.description.replace(/([^.])$/, '$1.')));
    const order: string[] = [];
    if (plugin.requires?.length) order.push(`Requires ${listOf(plugin.requires)}.`);
    if (plugin.after?.length) order.push(`Boots after ${listOf(plugin.after)} when ${plugin.after.length > 1 ? 'they are' : 'it is'} loaded.`);
    if (order.length) out.push('', order.join(' '));
    out.push('');
    if (section.keys.length) out.push(...keyTable(section, plugin.env?.length ? bindings : null));
    else out.push('No options: `{}`.');
  }
  return out.join('\n') + '\n';
}

/** Keys in no source comment and in no KEY_NOTES entry, and KEY_NOTES entries that are stale or redundant. */
export async function descriptionGaps(root = packageRoot()): Promise<{ undescribed: string[]; staleNotes: string[]; redundantNotes: string[] }> {
  const sections = [await hostSection(root)];
  for (const [name, plugin] of await builtinPlugins()) sections.push(await pluginSection(name, plugin, root));
  const keys = sections.flatMap((s) => s.keys);
  const known = new Set(keys.map((k) => k.path));
  const undescribed = keys.filter((k) => !k.description).map((k) => k.path);
  const staleNotes = Object.keys(KEY_NOTES).filter((k) => !known.has(k));
  const redundantNotes = keys.filter((k) => KEY_NOTES[k.path] !== undefined && k.description !== KEY_NOTES[k.path]).map((k) => k.path);
  return { undescribed, staleNotes, redundantNotes };
}
