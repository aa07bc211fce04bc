import type { Logger } from './logger.js';

/**
 * A typed extension point owned by one plugin (Backstage style): the owner provides a factory in
 * register() — `ctx.provide(point, (contributor) => implementation)` — and every plugin that
 * reaches the point with `ctx.use(point)` in init() gets the implementation made for it. So the
 * owner knows who contributes without being told: duplicates, errors and metrics name the real
 * plugin, and the host can drop the contributions of a plugin that fails. Core creates the
 * points' identity only; what an implementation offers is the owner's typed interface.
 */
export interface ExtensionPoint<T> {
  readonly id: string;
  readonly __type?: T;
}

export function createExtensionPoint<T>(id: string): ExtensionPoint<T> {
  return { id };
}

/** The plugin reaching an extension point, as its owner sees it. */
export interface Contributor {
  /** The contributing plugin's name: record it with each contribution (`list.add(contributor.name, value)`). */
  readonly name: string;
  /** The contributor's own logger, for reporting its contributions' failures under its name. */
  readonly log: Logger;
}

/** What an extension point's owner provides: one implementation per contributing plugin, made on first use. */
export type ExtensionPointFactory<T> = (contributor: Contributor) => T;

export function isExtensionPoint(value: unknown): value is ExtensionPoint<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'string';
}
