import type { BdsService } from '../../../../plugins/bds/bds-service.js';
import { TEST_POSTGRES_URL, type TestDatabase } from '../../../support/databases.js';
import { TcpProxy } from './tcp-proxy.js';

/**
 * A database outage a test can switch: on the server, a TCP proxy between BDS and PostgreSQL is
 * stopped (connections cut, new ones refused); on PGlite, the database is closed and reopened.
 */
export interface Outage {
  /** The test database as BDS should open it (through the proxy on the server). */
  db: TestDatabase;
  down(service: BdsService): Promise<void>;
  up(service: BdsService): Promise<void>;
  close(): Promise<void>;
}

export async function outageFor(db: TestDatabase): Promise<Outage> {
  if (db.kind === 'pglite') {
    return {
      db,
      down: (service) => service.db.disconnect(),
      up: (service) => service.db.reopen(),
      close: async () => undefined,
    };
  }
  const proxy = await TcpProxy.start();
  return {
    db: { ...db, url: proxy.urlFor(db.url ?? TEST_POSTGRES_URL) },
    down: () => proxy.stop(),
    up: () => proxy.resume(),
    close: () => proxy.stop(),
  };
}
