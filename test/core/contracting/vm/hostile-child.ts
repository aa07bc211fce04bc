import { compileContract } from '../../../../core/contracting/compiler/index.js';
import { runVm } from '../../../../core/contracting/vm/index.js';

/**
 * Runs hostile contracts in a child process of the test (see hostile-memory.test.ts): a contract
 * that makes V8 abort ("invalid size") or exhaust the heap kills this process, not mocha. Reads
 * `[{ name, source, chi }]` as JSON on stdin and prints one JSON line per contract as it ends:
 * `{ name, status, error, chi_used, heapUsedMb }`, then `{ done: true, maxRssMb }`.
 */
const probes = JSON.parse(await new Promise<string>((resolve) => {
  let text = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => (text += chunk));
  process.stdin.on('end', () => resolve(text));
})) as { name: string; source: string; chi: number }[];

for (const probe of probes) {
  process.stdout.write(`${JSON.stringify({ started: probe.name })}\n`);
  const compiled = compileContract('con_probe', probe.source);
  if (!compiled.ok) throw new Error(`${probe.name} does not compile: ${JSON.stringify(compiled.diagnostics)}`);
  const out = runVm({
    modules: [{ module_name: 'con_probe', ir: compiled.artifact.vm_ir_json }],
    call: { module: 'con_probe', function: 'attack', args: [], kwargs: {} },
    context: { caller: 'alice', signer: 'alice' },
    meter: { chi_budget: probe.chi },
  });
  const heapUsedMb = Math.round(process.memoryUsage().heapUsed / 2 ** 20);
  process.stdout.write(`${JSON.stringify({ name: probe.name, status: out.status, error: out.error ?? null, chi_used: Number(out.chi_used), heapUsedMb })}\n`);
}
process.stdout.write(`${JSON.stringify({ done: true, maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024) })}\n`);
