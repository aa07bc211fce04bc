import { z } from 'zod';
import type { JsonValue } from 'chainhost/chain';
import { defineTool, type ToolDefinition, type ToolInput } from 'chainhost/plugin';
import type { BdsReader, FallbackContext } from './bds-reader.js';
import { blockOut, rowOf, rowsOf, type Row } from './indexed-schemas.js';

/**
 * The two shapes most indexed reads share (mcp.md §4.6): a list `{items}` and one block
 * `{found, block}`, each read from a BDS path and, on a node without BDS, from the fallback in
 * its place. One place for the read-and-map, so every tool of a shape answers alike.
 */
interface IndexedRead<I extends ToolInput> {
  name: string;
  title: string;
  description: string;
  input: I;
  /** The BDS query path for these arguments. */
  path(args: z.output<I>): string;
  /** What answers instead on a node without BDS (rows in the BDS path's shape). */
  fallback(args: z.output<I>, ctx: FallbackContext): Promise<JsonValue>;
}

/** `{items: [item]}`: the path's rows (or its `{items}` envelope), each mapped to the tool's item. */
export function indexedListTool<I extends ToolInput, Item extends z.ZodTypeAny>(
  bds: BdsReader,
  read: IndexedRead<I> & { item: Item; map?: (row: Row) => unknown },
): ToolDefinition {
  return defineTool({
    name: read.name, title: read.title, description: read.description, capability: 'read', input: read.input,
    output: z.object({ items: z.array(read.item) }),
    run: async (args, { signal }) => {
      const rows = rowsOf(await bds.readOr(read.path(args), read.name, signal, (ctx) => read.fallback(args, ctx)));
      return { items: (read.map ? rows.map(read.map) : rows) as z.input<Item>[] };
    },
  });
}

/** `{found, block}`: one indexed block or null. */
export function indexedBlockTool<I extends ToolInput>(bds: BdsReader, read: IndexedRead<I>): ToolDefinition {
  return defineTool({
    name: read.name, title: read.title, description: read.description, capability: 'read', input: read.input,
    output: z.object({ found: z.boolean(), block: blockOut.nullable() }),
    run: async (args, { signal }) => {
      const row = rowOf(await bds.readOr(read.path(args), read.name, signal, (ctx) => read.fallback(args, ctx)));
      return { found: row !== null, block: row as z.input<typeof blockOut> | null };
    },
  });
}
