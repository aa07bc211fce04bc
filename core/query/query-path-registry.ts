import { ContributionList } from '../contribution-list.js';
import { parseQueryPath, queryRouteOf, type ParsedQueryPath, type QueryPathDefinition } from './query-path.js';

/** Contributed query paths by route (first path segment); consulted by the devnet's abci_query, the dashboard pass-through and tools. */
export class QueryPathRegistry {
  readonly list = new ContributionList<QueryPathDefinition>('query path', (d) => queryRouteOf(d.pattern));

  resolve(path: string): { definition: QueryPathDefinition; query: ParsedQueryPath } | undefined {
    const query = parseQueryPath(path);
    const entry = this.list.get(query.route);
    return entry ? { definition: entry.value, query } : undefined;
  }

  routes(): string[] {
    return this.list.values().map((d) => queryRouteOf(d.pattern));
  }
}
