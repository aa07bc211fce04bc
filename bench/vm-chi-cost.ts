import { pathToFileURL } from 'node:url';
import { compileContract } from '../core/contracting/compiler/index.js';
import {
  VmTransaction, compileModule, emptyContext, parseVmJson, type ChainState, type CompiledModule,
} from '../core/contracting/index.js';
import { printTable, type BenchResult } from './bench-result.js';

/**
 * CPU µs per chi of each operation class, at the VM's caps (1 Mi items, 1 MiB strings, 1 Mi-bit
 * ints) or at the size where an upstream-quadratic operation still ends: chi is upstream's and
 * constant per node, so an operation whose work grows with its operand is where time per chi
 * runs away. Each class runs `setup` alone and `setup` + `op` × K as two transactions; the
 * difference of their CPU time over the difference of their chi is the class's µs/chi. The
 * worst class is reported next to the median class of the same run (target: ≤ ~20×).
 */
interface OpClass { name: string; setup: string; op: string; k: number }

const MI_LIST = 'l = [0] * 131072\nfor i in range(3):\n    l = l + l';
const HALF_MI_LIST = 'l = [0] * 131072\nfor i in range(2):\n    l = l + l';
const MIB_STR = "s = 'ab' * 65536\nfor i in range(3):\n    s = s + s";

const CLASSES: OpClass[] = [
  { name: 'int arithmetic (ordinary code)', setup: 'x = 0', op: 'x = x + 3 * 7 - 1', k: 2000 },
  { name: 'small string building', setup: "s = ''", op: "s = 'k:' + str(i) + ':v'", k: 2000 },
  { name: 'decimal arithmetic', setup: "d = decimal('1.5')", op: "d = d * decimal('1.0001') + decimal('0.5')", k: 2000 },
  { name: 'small dict read/write', setup: "d = {'a': 1, 'b': 2}", op: "d['a'] = d['b'] + 1", k: 2000 },
  { name: 'membership in a 1 Mi list', setup: MI_LIST, op: 'x = -1 in l', k: 3 },
  { name: '== of two 1 Mi lists', setup: `${MI_LIST}\nm = l + []`, op: 'x = l == m', k: 3 },
  { name: 'list.append on a 512 Ki list', setup: HALF_MI_LIST, op: 'l.append(1)', k: 3 },
  { name: 'slice copy of a 1 Mi list', setup: MI_LIST, op: 'x = l[1:]', k: 3 },
  { name: 'sorted() of 131,072 ints', setup: 'l = list(range(131072))', op: 'x = sorted(l)', k: 3 },
  { name: 'str.replace over a 1 MiB string', setup: MIB_STR, op: "x = s.replace('a', 'c')", k: 3 },
  { name: 'str.find over a 1 MiB string', setup: MIB_STR, op: "x = s.find('z')", k: 3 },
  { name: 'str.split of a 1 MiB string', setup: MIB_STR, op: "x = s.split('b')", k: 3 },
  { name: 'str() of a 256 Ki list (768 KiB of text)', setup: 'l = [0] * 131072\nl = l + l', op: 'x = str(l)', k: 3 },
  { name: 'big int add at 1 Mbit', setup: 'n = 2 ** 1000000', op: 'n = n + n', k: 50 },
  { name: 'set() of 4,096 distinct ints (quadratic upstream)', setup: 'l = list(range(4096))', op: 'x = set(l)', k: 2 },
  { name: 'dict comprehension of 4,096 keys (quadratic upstream)', setup: 'r = range(4096)', op: 'x = {j: j for j in r}', k: 2 },
];

function contract(c: OpClass): string {
  const indent = (text: string, n: number) => text.split('\n').map((l) => ' '.repeat(n) + l).join('\n');
  return `@export\ndef base():\n${indent(c.setup, 4)}\n    return 0\n\n@export\ndef work():\n${indent(c.setup, 4)}\n    for i in range(${c.k}):\n${indent(c.op, 8)}\n    return 0\n`;
}

function measure(module: CompiledModule, fn: string): { cpuUs: number; chi: number } {
  const state: ChainState = { get: () => undefined, scan: () => [], module: () => module };
  let best = Infinity;
  let chi = 0;
  for (let round = 0; round < 3; round++) {
    const started = process.cpuUsage();
    const out = new VmTransaction(state, { enabled: true, chiBudgetRaw: 50_000_000 * 1000 }).execute('con_cost', fn, [], emptyContext());
    const used = process.cpuUsage(started);
    if (out.status !== 0) throw new Error(`${fn} of ${module.name}: ${out.error}`);
    best = Math.min(best, used.user + used.system);
    chi = out.stats.rawCost / 1000;
  }
  return { cpuUs: best, chi };
}

export async function run(): Promise<BenchResult[]> {
  const rows: { name: string; usPerChi: number }[] = [];
  for (const c of CLASSES) {
    const compiled = compileContract('con_cost', contract(c));
    process.stderr.write(`vm-chi-cost: ${c.name}\n`);
    if (!compiled.ok) throw new Error(`${c.name}: ${JSON.stringify(compiled.diagnostics)}`);
    const module = compileModule(parseVmJson(compiled.artifact.vm_ir_json));
    const base = measure(module, 'base');
    const work = measure(module, 'work');
    rows.push({ name: c.name, usPerChi: Math.max(0, work.cpuUs - base.cpuUs) / (work.chi - base.chi) });
  }
  const sorted = [...rows].sort((a, b) => a.usPerChi - b.usPerChi);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const worst = sorted[sorted.length - 1]!;
  return [
    ...rows.map((r) => ({ name: r.name, value: r.usPerChi, unit: 'µs/chi' })),
    {
      name: `worst class: ${worst.name}`, value: worst.usPerChi, unit: 'µs/chi',
      baseline: { name: `median: ${median.name}`, value: median.usPerChi }, ratio: worst.usPerChi / median.usPerChi, target: 'ratio ≤ 20',
    },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) printTable(await run());
