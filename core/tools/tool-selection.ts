import type { Contributed } from '../contribution-list.js';
import type { ToolDefinition } from './tool.js';

/**
 * Toolsets (`tools.include` / `tools.exclude`): a deployment lists and serves only the tools it
 * uses, so a model's context holds only those, as GitHub's MCP server does with `--toolsets`.
 * A selector names a tool, or a group: its capability (`read`, `unsafe`), the plugin that
 * contributed it (`wallet`, `dex`, …) or a group the tool declares (`indexed`). The capability
 * policy still comes first: including an unsafe tool does not enable it.
 */
export class ToolSelection {
  static readonly ALL = new ToolSelection(null, []);

  constructor(readonly include: readonly string[] | null, readonly exclude: readonly string[]) {}

  /** Everything a selector can call this tool. */
  static labelsOf(entry: Contributed<ToolDefinition>): string[] {
    const tool = entry.value;
    return [tool.name, tool.capability, entry.plugin, ...(tool.groups ?? [])];
  }

  get selectsAll(): boolean {
    return this.include === null && this.exclude.length === 0;
  }

  selects(entry: Contributed<ToolDefinition>): boolean {
    if (this.selectsAll) return true;
    const labels = ToolSelection.labelsOf(entry);
    if (this.include && !this.include.some((s) => labels.includes(s))) return false;
    return !this.exclude.some((s) => labels.includes(s));
  }

  /** Selectors that match none of `entries` (every tool contributed, allowed or not): a misspelt name or group. */
  unmatched(entries: readonly Contributed<ToolDefinition>[]): string[] {
    const known = new Set(entries.flatMap(ToolSelection.labelsOf));
    return [...(this.include ?? []), ...this.exclude].filter((s) => !known.has(s));
  }

  /** The groups that exist among `entries`, for an error message. */
  static groupsOf(entries: readonly Contributed<ToolDefinition>[]): string[] {
    return [...new Set(entries.flatMap((e) => ToolSelection.labelsOf(e).slice(1)))].sort();
  }
}
