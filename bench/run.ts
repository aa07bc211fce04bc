import os from 'node:os';
import { writeFile } from 'node:fs/promises';
import { formatTable, printTable, type BenchResult } from './bench-result.js';

/**
 * `npm run bench`: every benchmark, one after another (they share two cores, so never in
 * parallel), each figure next to its baseline measured in the same run; the report goes to
 * stdout and bench/RESULTS.md. `npm run bench -- tools-http dex-quotes` runs a subset.
 */
const BENCHMARKS: Record<string, () => Promise<{ run(): Promise<BenchResult[]> }>> = {
  'tools-http': () => import('./tools-http.js'),
  'mcp-http': () => import('./mcp-http.js'),
  'tools-get-balance': () => import('./tools-get-balance.js'),
  'devnet-throughput': () => import('./devnet-throughput.js'),
  'devnet-search': () => import('./devnet-search.js'),
  'dex-quotes': () => import('./dex-quotes.js'),
  'dashboard-limits': () => import('./dashboard-limits.js'),
  'bds-ingest': () => import('./bds-ingest.js'),
  'bds-read-replica': () => import('./bds-read-replica.js'),
  'bds-pglite-thread': () => import('./bds-pglite-thread.js'),
  'graphql-transactions': () => import('./graphql-transactions.js'),
  'graphql-vs-postgraphile': () => import('./graphql-vs-postgraphile.js'),
  'tool-answer-bytes': () => import('./tool-answer-bytes.js'),
  'contract-compile': () => import('./contract-compile.js'),
  'vm-execution': () => import('./vm-execution.js'),
  'vm-chi-cost': () => import('./vm-chi-cost.js'),
  'keystore-cold-start': () => import('./keystore-cold-start.js'),
  'tools-list-bytes': () => import('./tools-list-bytes.js'),
  'hostile-clients': () => import('./hostile-clients.js'),
  'fresh-home-start': () => import('./fresh-home-start.js'),
};

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !(name in BENCHMARKS));
if (unknown.length) {
  process.stderr.write(`unknown benchmark ${unknown.join(', ')}; known: ${Object.keys(BENCHMARKS).join(', ')}\n`);
  process.exit(2);
}
const sections: string[] = [];
let failed = 0;
for (const [name, load] of Object.entries(BENCHMARKS)) {
  if (wanted.length && !wanted.includes(name)) continue;
  process.stdout.write(`\n== ${name}\n`);
  const started = performance.now();
  try {
    const results = await (await load()).run();
    printTable(results);
    sections.push(`## ${name}\n\n\`\`\`\n${formatTable(results)}\n\`\`\`\n(${((performance.now() - started) / 1000).toFixed(0)} s)\n`);
  } catch (err) {
    failed++;
    const reason = err instanceof Error ? err.stack ?? err.message : String(err);
    process.stdout.write(`failed: ${reason}\n`);
    sections.push(`## ${name}\n\nfailed: ${reason.split('\n')[0]}\n`);
  }
}

const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`;
const report = `# Benchmark results\n\nRun ${new Date().toISOString()} on ${machine}.\nEvery ratio compares a figure with its baseline measured in the same run (for throughput: baseline ÷ value).\n\n${sections.join('\n')}`;
if (!wanted.length) await writeFile(new URL('./RESULTS.md', import.meta.url), report);
process.exitCode = failed ? 1 : 0;
