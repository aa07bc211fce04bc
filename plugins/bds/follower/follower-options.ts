/** Tunables of the BDS follower (bds.md §4, §8) and the small helpers its loops share. */
export interface FollowerOptions {
  queueCapacity: number;
  batchMaxBlocks: number;
  batchMaxTxs: number;
  pollIntervalMs: number;
  retryDelayMs: number;
  fetchConcurrency: number;
  spoolMaxEntries: number;
  catchupEnabled: boolean;
}

export const DEFAULT_FOLLOWER_OPTIONS: FollowerOptions = {
  queueCapacity: 128, batchMaxBlocks: 64, batchMaxTxs: 20_000, pollIntervalMs: 1000, retryDelayMs: 2000,
  fetchConcurrency: 8, spoolMaxEntries: 100_000, catchupEnabled: true,
};

export interface TimedError {
  code: string;
  message: string;
  recorded_at: string;
}

export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export function timedError(code: string, message: string): TimedError {
  return { code, message, recorded_at: new Date().toISOString().replace(/\.\d{3}Z$/, '+00:00') };
}
