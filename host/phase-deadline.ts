/** One plugin phase: the key of its deadline under `pluginTimeouts`. */
export type PluginPhase = 'register' | 'init' | 'start' | 'stop';

/** A plugin hook that did not settle within its phase's deadline. */
export class PhaseTimeout extends Error {
  constructor(readonly phase: PluginPhase, readonly timeoutMs: number) {
    super(`did not finish within ${timeoutMs} ms (pluginTimeouts.${phase}Ms)`);
    this.name = 'PhaseTimeout';
  }
}

/**
 * Runs a plugin hook and waits for it at most `timeoutMs`. JavaScript cannot cancel the hook:
 * past the deadline it keeps running, its late result or rejection is ignored, and the caller
 * treats the plugin as failed. A synchronous hook (register) is not awaited at all, so a
 * synchronous throw surfaces unchanged. The timer holds the event loop on purpose: a hook
 * awaiting I/O that holds nothing would otherwise let Node exit with code 13 and no message.
 */
export async function withinDeadline<T>(hook: () => T | PromiseLike<T>, phase: PluginPhase, timeoutMs: number): Promise<T> {
  const value = hook();
  if (!isThenable(value)) return value;
  let timer: NodeJS.Timeout | undefined;
  try {
    return await new Promise<T>((resolve, reject) => {
      timer = setTimeout(() => reject(new PhaseTimeout(phase, timeoutMs)), timeoutMs);
      value.then(resolve, reject);
    });
  } finally {
    clearTimeout(timer);
  }
}

function isThenable<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}
