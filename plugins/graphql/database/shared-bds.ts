import type { PluginContext } from 'chainhost/plugin';
import { BdsTokens } from '../../bds/index.js';
import type { BdsSource } from './bds-source.js';

/**
 * The `bds` plugin's database handle, when that plugin runs in this host. PGlite is
 * single-process, so GraphQL must read through bds's own handle rather than open a second
 * one; on PostgreSQL sharing also keeps one pool. The handle's `knex` may change when the
 * worker reconnects, so it is read per statement (see KnexSqlRunner).
 */
export function sharedBdsSource(ctx: PluginContext<unknown>): BdsSource | null {
  return ctx.tryResolve(BdsTokens.database) ?? null;
}
