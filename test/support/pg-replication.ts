import { execFile, spawnSync } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './free-port.js';

/**
 * A real PostgreSQL streaming replication pair for tests, made from scratch under a temp
 * directory: `initdb` a primary (wal_level=replica, a pg_hba replication line for 127.0.0.1),
 * `pg_basebackup -R` a standby from it, both started on free loopback ports. The machine's own
 * cluster is not used (its pg_hba has no replication entry). PostgreSQL refuses to run as root, so
 * when tests run as root the servers run as the `postgres` OS user (`runuser -u postgres --`);
 * otherwise as the current user.
 *
 * `stop()` tears both down and removes the directory; call it in `after`, it is safe after a
 * half-made set-up (start() tears down what it made before rethrowing).
 */
const run = promisify(execFile);

export interface ReplicationPair {
  primaryUrl: string;
  standbyUrl: string;
  dir: string;
  /** Stops replaying WAL on the standby (it keeps receiving): the replica lags until `resumeReplay`. */
  pauseReplay(): Promise<void>;
  resumeReplay(): Promise<void>;
  /** Stops the standby server (the replica is down) / starts it again. */
  stopStandby(): Promise<void>;
  startStandby(): Promise<void>;
  /** One SQL statement on either server, as the superuser. */
  sql(server: 'primary' | 'standby', text: string, values?: unknown[]): Promise<Record<string, unknown>[]>;
  stop(): Promise<void>;
}

/** Why the pair cannot be made on this machine, or null when it can. */
export function replicationUnavailableReason(): string | null {
  const bin = postgresBinDir();
  if (!bin) return 'no PostgreSQL server binaries under /usr/lib/postgresql/<version>/bin (initdb, pg_ctl, pg_basebackup)';
  if (asRoot() && !['/usr/sbin/runuser', '/sbin/runuser', '/usr/bin/runuser'].some(existsSync)) return 'tests run as root and there is no runuser to start PostgreSQL as the postgres user';
  return null;
}

/** The newest installed server version's bin directory with every tool the pair needs. */
export function postgresBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
  for (const v of versions) {
    const bin = join(root, v, 'bin');
    if (['initdb', 'pg_ctl', 'pg_basebackup', 'postgres'].every((t) => existsSync(join(bin, t)))) return bin;
  }
  return null;
}

export async function startReplicationPair(): Promise<ReplicationPair> {
  const bin = postgresBinDir();
  if (!bin) throw new Error(replicationUnavailableReason() ?? 'no PostgreSQL binaries');
  const dir = mkdtempSync(join(tmpdir(), 'chain-pg-replication-'));
  if (asRoot()) {
    const { uid, gid } = await postgresUser();
    chownSync(dir, uid, gid);
  }
  const primaryDir = join(dir, 'primary');
  const standbyDir = join(dir, 'standby');
  const [primaryPort, standbyPort] = [await freePort(), await freePort()];
  const asPostgres = (tool: string, args: string[]) => asRoot()
    ? run('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args], { timeout: 60_000 })
    : run(join(bin, tool), args, { timeout: 60_000 });
  const started: string[] = [];
  const pgCtl = (data: string, action: 'start' | 'stop', log: string) =>
    asPostgres('pg_ctl', action === 'start' ? ['-D', data, '-l', log, '-w', '-t', '30', 'start'] : ['-D', data, '-m', 'immediate', '-w', 'stop']);
  // Last resort when the test process exits without running `after` (an uncaught error, mocha's --exit).
  const onExit = () => {
    for (const data of started.splice(0).reverse()) {
      const args = [join(bin, 'pg_ctl'), '-D', data, '-m', 'immediate', 'stop'];
      spawnSync(asRoot() ? 'runuser' : args[0]!, asRoot() ? ['-u', 'postgres', '--', ...args] : args.slice(1), { timeout: 10_000 });
    }
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', onExit);
  const stop = async () => {
    process.removeListener('exit', onExit);
    for (const data of started.splice(0).reverse()) await pgCtl(data, 'stop', '').catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await asPostgres('initdb', ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
    appendFileSync(join(primaryDir, 'postgresql.conf'), [
      '', '# chainhost replication test',
      `port = ${primaryPort}`, "listen_addresses = '127.0.0.1'", `unix_socket_directories = '${dir}'`,
      'wal_level = replica', 'max_wal_senders = 4', 'hot_standby = on', 'max_connections = 40',
      // A throwaway cluster: durability is not under test, speed is.
      'fsync = off', 'full_page_writes = off', '',
    ].join('\n'));
    appendFileSync(join(primaryDir, 'pg_hba.conf'), '\nhost replication all 127.0.0.1/32 trust\n');
    await pgCtl(primaryDir, 'start', join(dir, 'primary.log'));
    started.push(primaryDir);
    await asPostgres('pg_basebackup', ['-R', '-D', standbyDir, '-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-X', 'stream', '-c', 'fast']);
    appendFileSync(join(standbyDir, 'postgresql.conf'), `\nport = ${standbyPort}\n`);
    await pgCtl(standbyDir, 'start', join(dir, 'standby.log'));
    started.push(standbyDir);
  } catch (err) {
    await stop();
    throw err;
  }
  const urlOf = (port: number) => `postgres://postgres@127.0.0.1:${port}/postgres`;
  const sql = async (server: 'primary' | 'standby', text: string, values: unknown[] = []) => {
    const client = new pg.Client({ connectionString: urlOf(server === 'primary' ? primaryPort : standbyPort) });
    await client.connect();
    try {
      return (await client.query(text, values)).rows as Record<string, unknown>[];
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  return {
    primaryUrl: urlOf(primaryPort),
    standbyUrl: urlOf(standbyPort),
    dir,
    pauseReplay: async () => {
      await sql('standby', 'SELECT pg_wal_replay_pause()');
    },
    resumeReplay: async () => {
      await sql('standby', 'SELECT pg_wal_replay_resume()');
    },
    stopStandby: async () => {
      await pgCtl(standbyDir, 'stop', '');
      const i = started.indexOf(standbyDir);
      if (i >= 0) started.splice(i, 1);
    },
    startStandby: async () => {
      await pgCtl(standbyDir, 'start', join(dir, 'standby.log'));
      started.push(standbyDir);
    },
    sql,
    stop,
  };
}

function asRoot(): boolean {
  return process.getuid?.() === 0;
}

async function postgresUser(): Promise<{ uid: number; gid: number }> {
  const [u, g] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
  return { uid: Number(u.stdout.trim()), gid: Number(g.stdout.trim()) };
}

