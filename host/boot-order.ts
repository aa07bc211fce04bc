import { BootError } from '../core/errors.js';
import type { AnyPlugin } from '../core/plugin.js';

/**
 * Orders plugins so every plugin boots after what it `requires` (which must be loaded) and
 * after what it lists in `after` (when loaded). Ties keep the config's order.
 */
export function bootOrder(plugins: readonly AnyPlugin[]): AnyPlugin[] {
  const byName = new Map(plugins.map((p) => [p.name, p]));
  for (const plugin of plugins) {
    for (const dep of plugin.requires ?? []) {
      if (!byName.has(dep)) {
        throw new BootError('missing_dependency', `plugin "${plugin.name}" requires plugin "${dep}", which is not loaded; add "${dep}" to plugins in the config`);
      }
    }
  }
  const ordered: AnyPlugin[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (plugin: AnyPlugin, trail: string[]) => {
    const s = state.get(plugin.name);
    if (s === 'done') return;
    if (s === 'visiting') {
      const chain = [...trail.slice(trail.indexOf(plugin.name)), plugin.name];
      throw new BootError('dependency_cycle', `plugins depend on each other in a cycle: ${chain.join(' → ')}`);
    }
    state.set(plugin.name, 'visiting');
    for (const dep of [...(plugin.requires ?? []), ...(plugin.after ?? [])]) {
      const target = byName.get(dep);
      if (target) visit(target, [...trail, plugin.name]);
    }
    state.set(plugin.name, 'done');
    ordered.push(plugin);
  };
  for (const plugin of plugins) visit(plugin, []);
  return ordered;
}
