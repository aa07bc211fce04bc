import { loadConfig } from '../../core/config/load-config.js';
import { createLogger } from '../../core/logger.js';
import { redactUrlsIn } from '../../core/net/redact-url.js';
import { openMaintenanceSession, type MaintenanceSession } from '../../plugins/bds/maintenance/maintenance-session.js';
import { Host } from '../host.js';

/**
 * The one way the BDS maintenance commands (`chain-bds-reindex`, `chain-bds-snapshot`) run:
 * load the config with the bds plugin, create the host without starting it, open a maintenance
 * session, run, close the session, exit 0; any failure is one `<name>: error: …` line and exit 1.
 */
export interface MaintenanceRun {
  name: string;
  config?: string;
  /** Source node RPC other than the configured one (reindex's --rpc-url). */
  rpcUrl?: string;
}

export async function runBdsMaintenance(run: MaintenanceRun, work: (session: MaintenanceSession, say: (line: string) => void) => Promise<void>): Promise<never> {
  const say = (line: string) => process.stderr.write(`${run.name}: ${redactUrlsIn(line)}\n`);
  try {
    const loaded = await loadConfig({ configPath: run.config, plugins: { bds: {} } });
    const host = await Host.create(loaded, { log: createLogger({ scope: run.name, level: 'warn' }) });
    const session = await openMaintenanceSession(host, run.rpcUrl);
    try {
      await work(session, say);
    } finally {
      await session.close();
    }
    process.exit(0);
  } catch (err) {
    say(`error: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
