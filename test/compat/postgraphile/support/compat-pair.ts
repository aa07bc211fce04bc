import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TEST_POSTGRES_URL } from '../../../support/databases.js';
import { fillCompatChain, type CompatChain } from './compat-chain.js';
import { createDatabase, hideMigrationTables } from './compat-database.js';
import { ensureCompatInstalled } from './compat-install.js';
import { startInHost, startPostgraphile, startSidecar, type ServerProcess } from './compat-servers.js';

/** The real PostGraphile 5 and chainhost's sidecar over one database the devnet and BDS filled. */
export interface CompatPair {
  chain: CompatChain;
  reference: ServerProcess;
  ours: ServerProcess;
  /** The graphql plugin in a host beside bds (bds's database handle), when asked for. */
  inHost: ServerProcess | null;
  /** Stops both servers, drops the database, removes the scratch directory. */
  stop(): Promise<void>;
}

/** Installs PostGraphile when needed, creates and fills a database named after `name`, starts both servers; on failure cleans up what it made. */
export async function startCompatPair(name: string, options: { inHost?: boolean } = {}): Promise<CompatPair> {
  ensureCompatInstalled();
  const home = mkdtempSync(path.join(os.tmpdir(), `${name.replace(/_/g, '-')}-`));
  let database: { url: string; drop(): Promise<void> } | null = null;
  const servers: ServerProcess[] = [];
  const stop = async () => {
    for (const server of servers.reverse()) await server.stop().catch(() => undefined);
    await database?.drop().catch(() => undefined);
    rmSync(home, { recursive: true, force: true });
  };
  try {
    database = await createDatabase(TEST_POSTGRES_URL, name);
    const chain = await fillCompatChain(database.url, home);
    await hideMigrationTables(database.url);
    // PostGraphile first: it reads the catalog once at start (no watch mode), so nothing our
    // server might add to the database later could appear in the reference schema.
    const reference = await startPostgraphile(database.url);
    servers.push(reference);
    const ours = await startSidecar(database.url);
    servers.push(ours);
    const inHost = options.inHost ? await startInHost(database.url) : null;
    if (inHost) servers.push(inHost);
    return { chain, reference, ours, inHost, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
