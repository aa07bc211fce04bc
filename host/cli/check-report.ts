import { urlFor } from '../../core/net/bind-address.js';
import type { ContributionList } from '../../core/contribution-list.js';
import type { Host } from '../host.js';
import { routeMount } from '../servers/route-mounts.js';
import type { RouteContribution } from '../../core/routes.js';

/**
 * `--check`: what a booted-but-not-started host would serve, one section per contribution kind
 * (servers, tools, routes, WebSockets, query paths, then the plugins' own lists such as BDS
 * indexers and GraphQL types). Every entry names the plugin that contributed it; what the
 * capability policy withheld is listed as such. Never secrets: tokens and database URLs are
 * not part of any contribution.
 */
export function checkReport(host: Host): string[] {
  const lines = [`plugins: ${host.pluginNames().join(', ') || '(none)'}`, `policy: ${host.policyLine()}`];
  const failed = host.describe().filter((l) => l.startsWith('skipped optional plugin'));
  lines.push(...failed);
  // Every port the config binds: the host's servers and those plugins bind themselves (the devnet's node RPC and metrics).
  lines.push(...section(`ports it would bind`, [
    ...host.servers.list().map(({ plugin, value: s }) => [s.name, urlFor(s.host, s.port), s.kind, `from ${plugin}`]),
    ...host.ownListeners.map((l) => [l.name, urlFor(l.host, l.port), l.paths ?? '', `from ${l.plugin}`]),
  ]));
  for (const list of host.contributionLists()) {
    if (list === (host.servers as ContributionList<unknown>)) continue;
    lines.push(...section(plural(list.kind), rowsOf(host, list)));
  }
  return lines;
}

function rowsOf(host: Host, list: ContributionList<unknown>): string[][] {
  const capability = (value: unknown) => (list.capabilityOf ? String(list.capabilityOf(value)) : '-');
  // A query path is keyed by its route; its pattern says more.
  const label = (value: unknown) => {
    const pattern = (value as { pattern?: unknown }).pattern;
    return typeof pattern === 'string' ? pattern : list.keyOf(value);
  };
  // A route says where it is mounted: its server and paths.
  const mount = (value: unknown) => (list === (host.routes as ContributionList<unknown>) ? [`on ${(value as RouteContribution).server} ${routeMount(value as RouteContribution)}`] : []);
  return [
    ...list.list().map((e) => [label(e.value), capability(e.value), `from ${e.plugin}`, ...mount(e.value)]),
    ...list.withheld().map((e) => [label(e.value), capability(e.value), `from ${e.plugin}`, 'withheld by the policy']),
  ];
}

/** A titled block of aligned columns; `(none)` when empty. */
function section(title: string, rows: string[][]): string[] {
  if (rows.length === 0) return [`${title}: (none)`];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  return [`${title} (${rows.length}):`, ...rows.map((r) => `  ${r.map((cell, i) => cell.padEnd(i < r.length - 1 ? widths[i]! : 0)).join('  ')}`.trimEnd())];
}

function plural(kind: string): string {
  return kind.endsWith('s') ? kind : kind.endsWith('y') ? `${kind.slice(0, -1)}ies` : `${kind}s`;
}
