/**
 * The CPU time (user + system, in ms) this process spends while `work` runs: for bounds on how
 * much work something costs — a matcher, a parser, an in-process server's answer. Unlike wall
 * time it does not grow when other processes take the cores (issue #30: a busy CI run failed on
 * wall-clock bounds alone); only work this process does between start and end counts.
 */
export function cpuTimeOfSync<T>(work: () => T): { ms: number; value: T } {
  const start = process.cpuUsage();
  const value = work();
  return { ms: cpuMsSince(start), value };
}

export async function cpuTimeOf<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = process.cpuUsage();
  const value = await work();
  return { ms: cpuMsSince(start), value };
}

function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1_000;
}
