import { z } from 'zod';
import { annotationsOf, type ToolAnnotations, type ToolDefinition } from '../../core/tools/tool.js';
import type { Capability } from '../../core/capability.js';
import { outputSchemaOutline } from './output-schema-outline.js';
import { portableSchema } from './portable-schema.js';

/** JSON Schema of a tool's arguments and result; the same documents serve GET /tools and MCP tools/list. */
export interface ToolSchemas {
  input: Record<string, unknown>;
  output: Record<string, unknown>;
}

export interface ToolListing {
  name: string;
  title: string;
  description: string;
  /** Upstream's name for the JSON Schema of the arguments (mcp.md §7.1); the same document as input_schema. */
  parameters: Record<string, unknown>;
  capability: Capability;
  annotations: ToolAnnotations;
  input_schema: Record<string, unknown>;
  output_schema: Record<string, unknown>;
}

const cache = new WeakMap<ToolDefinition, ToolSchemas>();

/**
 * Draft-07, like the MCP SDK's own conversion, because clients validate with Ajv's default
 * dialect. The input schema is the strict one (`additionalProperties: false`) since the
 * invoker rejects unknown arguments; types JSON Schema cannot express become "any JSON value"
 * instead of failing the whole listing. Nullable types and unconstrained values are respelled
 * portably (portable-schema.ts). The output schema is the outline a client validates the answer
 * against (output-schema-outline.ts).
 */
export function toolSchemas(tool: ToolDefinition): ToolSchemas {
  let schemas = cache.get(tool);
  if (!schemas) {
    schemas = {
      input: withoutDialect(portableSchema(z.toJSONSchema(tool.input.strict(), { target: 'draft-7', io: 'input', unrepresentable: 'any' }))),
      output: portableSchema(outputSchemaOutline(z.toJSONSchema(tool.output, { target: 'draft-7', io: 'output', unrepresentable: 'any' }) as Record<string, unknown>)) as Record<string, unknown>,
    };
    cache.set(tool, schemas);
  }
  return schemas;
}

/**
 * Without `$schema`: 50 bytes per schema, twice per tool, on every session. The documents use
 * only keywords that mean the same in draft-07 (Ajv's default dialect) and 2020-12 (MCP's
 * default when `$schema` is absent): no tuples, no `definitions`.
 */
function withoutDialect(schema: unknown): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = schema as Record<string, unknown>;
  return withoutSafeIntegerBounds(rest) as Record<string, unknown>;
}

/** `maximum: 9007199254740991` (zod's bound of a safe integer) says nothing a JSON number does not: left out of listings. */
function withoutSafeIntegerBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutSafeIntegerBounds);
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(Object.entries(node)
    .filter(([k, v]) => !((k === 'maximum' && v === Number.MAX_SAFE_INTEGER) || (k === 'minimum' && v === Number.MIN_SAFE_INTEGER)))
    .map(([k, v]) => [k, withoutSafeIntegerBounds(v)]));
}

/** One tool as `GET /tools` describes it. */
export function toolListing(tool: ToolDefinition): ToolListing {
  const schemas = toolSchemas(tool);
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    parameters: schemas.input,
    capability: tool.capability,
    annotations: annotationsOf(tool),
    input_schema: schemas.input,
    output_schema: schemas.output,
  };
}
