import { execFileSync, fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The compiled build (`dist/`, what `npm start` runs) for benchmarks that serve HTTP. Under tsx
 * every closure is wrapped in a naming helper each time it is created, which makes code with
 * more closures look slower than it runs in production and tilts a ratio users never see.
 * `ensureBuild()` compiles the current sources once per process, so a figure never comes
 * from a stale build.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let built = false;

export function ensureBuild(): void {
  if (built) return;
  execFileSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', path.join(ROOT, 'tsconfig.build.json')], { stdio: 'inherit' });
  built = true;
}

/** Imports a module of the build by its source path, e.g. `host/host` → `dist/host/host.js`. */
export function importBuilt<T>(sourcePath: string): Promise<T> {
  return import(pathToFileURL(path.join(ROOT, 'dist', `${sourcePath}.js`)).href) as Promise<T>;
}

const SOURCE_CONDITION = '--conditions=chainhost-source';

/**
 * How to start a process that runs the build alone: `npm run bench` runs the sources under the
 * chainhost-source condition, under which a built plugin's `chainhost/plugin` would resolve to
 * the sources — a second kernel beside the built one (core/single-kernel.ts refuses that).
 */
export function builtProcessOptions(): { execArgv: string[]; env: NodeJS.ProcessEnv } {
  const nodeOptions = (process.env.NODE_OPTIONS ?? '').split(/\s+/).filter((o) => o && o !== SOURCE_CONDITION).join(' ');
  return { execArgv: ['--import', 'tsx'], env: { ...process.env, NODE_OPTIONS: nodeOptions } };
}

const BUILT_CHILD = '--built-child';

/**
 * Runs `run` of the benchmark module `file` in a child process that loads only the build
 * (builtProcessOptions) and hands back its results; in that child (argv `--built-child`) it
 * runs `run` and sends them. A module calls this at its top level with its own `run`.
 */
export async function inBuiltProcess<T>(file: string, run: () => Promise<T>): Promise<T> {
  const child = fork(file, [BUILT_CHILD], { ...builtProcessOptions(), stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise<T>((resolve, reject) => {
    child.once('message', (result) => resolve(result as T));
    child.once('exit', (code) => reject(new Error(`${path.basename(file)} (built) exited with ${code} before answering`)));
  });
}

/** In the child started by inBuiltProcess: sends the results and exits. */
export async function answerIfBuiltChild<T>(run: () => Promise<T>): Promise<void> {
  if (process.argv[2] !== BUILT_CHILD) return;
  const result = await run();
  process.send!(result, () => process.exit(0));
}
