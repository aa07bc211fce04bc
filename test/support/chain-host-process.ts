import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from './test-host.js';

/**
 * `chain-host --config <file>` in a child process, as an operator runs it: started, read from
 * its stderr banner (the devnet's node RPC and the tool server's URLs), stopped with SIGTERM or
 * killed with SIGKILL.
 */
export interface ChainHostProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** The devnet's CometBFT RPC (from the devnet banner: the config must set printAccounts). */
  readonly rpcUrl: string;
  /** The HTTP tool server, when the config serves one. */
  readonly toolsUrl: string | null;
  /** The last 16 KB of stderr, for failure messages. */
  stderrTail(): string;
  /** kill -9, resolved once the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM and the exit code (the host stops its plugins cleanly first). */
  stop(timeoutMs?: number): Promise<number | null>;
}

const TAIL = 16 * 1024;

export async function startChainHost(configFile: string, options: { env?: Record<string, string>; timeoutMs?: number; preload?: readonly string[] } = {}): Promise<ChainHostProcess> {
  // `preload`: modules imported into the child before the host (e.g. test/support/host-work-probe.ts).
  const preload = (options.preload ?? []).flatMap((file) => ['--import', file]);
  const child = spawn(process.execPath, ['--import', 'tsx', ...preload, path.join(REPO_ROOT, 'host/bin/chain-host.ts'), '--config', configFile], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_OPTIONS: process.env.NODE_OPTIONS ?? '', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-TAIL)));
  child.stdout.resume();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const banner = await new Promise<string>((resolve, reject) => {
    let text = '';
    const timeoutMs = options.timeoutMs ?? 60_000;
    const timer = setTimeout(() => fail(new Error(`chain-host did not start within ${timeoutMs} ms:\n${stderr}`)), timeoutMs);
    const onData = (c: Buffer) => {
      text += c.toString();
      if (/^chain-host: serving$/m.test(text)) done(text);
    };
    const onExit = (code: number | null, signal: string | null) => fail(new Error(`chain-host exited (${signal ?? code}) before it was serving:\n${stderr}`));
    const cleanup = () => {
      clearTimeout(timer);
      child.stderr.off('data', onData);
      child.off('exit', onExit);
    };
    const done = (t: string) => { cleanup(); resolve(t); };
    const fail = (err: Error) => { cleanup(); child.kill('SIGKILL'); reject(err); };
    child.stderr.on('data', onData);
    child.once('exit', onExit);
  });

  const rpcUrl = /node RPC +(http:\/\/\S+)/.exec(banner)?.[1];
  if (!rpcUrl) {
    child.kill('SIGKILL');
    throw new Error(`no node RPC URL in the banner (is plugins.devnet.printAccounts on?):\n${banner}`);
  }
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  return {
    child,
    rpcUrl,
    toolsUrl: /^chain-host: tools: (http:\/\/\S+)/m.exec(banner)?.[1] ?? null,
    stderrTail: () => stderr,
    async kill() {
      if (!gone()) child.kill('SIGKILL');
      await exited;
    },
    async stop(timeoutMs = 30_000) {
      if (!gone()) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
        await exited;
        clearTimeout(timer);
      }
      return child.exitCode;
    },
  };
}
