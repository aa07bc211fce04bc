import type { ToolDefinition } from '../../../core/tools/tool.js';
import { blockTools } from './block-tools.js';
import { historyTools } from './history-tools.js';
import type { BdsToolDeps } from './tool-support.js';

/** The indexed-read tools (capability read), answered from the BDS database in process. */
export function bdsTools(deps: BdsToolDeps): ToolDefinition[] {
  return [...blockTools(deps), ...historyTools(deps)];
}

export type { BdsToolDeps };
