import type { AnyPlugin } from '../core/plugin.js';

/** Built-in plugins by name, imported lazily so a minimal deployment loads only what it uses. */
export const BUILTIN_PLUGINS: Record<string, () => Promise<AnyPlugin>> = {};
