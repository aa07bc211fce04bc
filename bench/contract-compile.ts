import { pathToFileURL } from 'node:url';
import { parser } from '@lezer/python';
import { compileContract } from '../core/contracting/index.js';
import { printTable, type BenchResult } from './bench-result.js';

/**
 * Contract compile time: `compileContract` (parse → subset → lint → normalize → re-parse → lower →
 * canonical IR text → hashes) on a ~40 KB DEX-router-like contract, next to parsing the same text
 * alone with @lezer/python in the same run. The ratio says what the compiler adds on top of a parse.
 */

const ROUTER_FUNCTIONS = `
@export
def swap_exact_in_NN(amount_in: float, amount_out_min: float, path: list, to: str, deadline: datetime.datetime):
    assert now < deadline, 'Transaction expired'
    assert len(path) >= 2, 'Invalid path'
    amounts = get_amounts_out_NN(amount_in, path)
    assert amounts[-1] >= amount_out_min, f'Insufficient output amount: {amounts[-1]} < {amount_out_min}'
    token = importlib.import_module(path[0])
    token.transfer_from(amount=amount_in, to=ctx.this, main_account=ctx.caller)
    for i in range(len(path) - 1):
        pair_id = toks_to_pair[path[i], path[i + 1]]
        assert pair_id is not None, 'Pair does not exist'
        reserve_in, reserve_out = pairs[pair_id, 'reserve0'], pairs[pair_id, 'reserve1']
        if path[i] > path[i + 1]:
            reserve_in, reserve_out = reserve_out, reserve_in
        fee = DEFAULT_FEE_BPS if not zero_fee[ctx.signer] else 0
        out = amounts[i + 1]
        pairs[pair_id, 'reserve0'] += amounts[i] if path[i] < path[i + 1] else -out
        pairs[pair_id, 'reserve1'] -= out if path[i] < path[i + 1] else -amounts[i]
        Swap({'pair': pair_id, 'amount_in': amounts[i], 'amount_out': out, 'to': to, 'fee_bps': fee})
    importlib.import_module(path[-1]).transfer(amount=amounts[-1], to=to)
    return amounts[-1]


def get_amounts_out_NN(amount_in: float, path: list):
    amounts = [amount_in]
    for i in range(len(path) - 1):
        pair_id = toks_to_pair[path[i], path[i + 1]]
        reserve_in = pairs[pair_id, 'reserve0'] if path[i] < path[i + 1] else pairs[pair_id, 'reserve1']
        reserve_out = pairs[pair_id, 'reserve1'] if path[i] < path[i + 1] else pairs[pair_id, 'reserve0']
        amount_in_with_fee = amounts[-1] * (10000 - DEFAULT_FEE_BPS)
        amounts.append(amount_in_with_fee * reserve_out / (reserve_in * 10000 + amount_in_with_fee))
    return amounts


@export
def quote_NN(amount_a: float, reserve_a: float, reserve_b: float) -> float:
    assert amount_a > 0, 'Insufficient amount'
    assert reserve_a > 0 and reserve_b > 0, 'Insufficient liquidity'
    return amount_a * reserve_b / reserve_a
`;

export function routerSource(targetBytes = 40_000): string {
  let source = [
    '"""A DEX router, generated for the compile benchmark."""',
    "DEX_PAIRS = 'con_pairs'",
    'DEFAULT_FEE_BPS = 30',
    "toks_to_pair = ForeignHash(foreign_contract=DEX_PAIRS, foreign_name='toks_to_pair')",
    "pairs = ForeignHash(foreign_contract=DEX_PAIRS, foreign_name='pairs')",
    'zero_fee = Hash(default_value=False)',
    'owner = Variable()',
    "Swap = LogEvent('Swap', {'pair': indexed(int), 'amount_in': (int, float, decimal), 'amount_out': (int, float, decimal), 'to': indexed(str), 'fee_bps': int})",
    '',
    '@construct',
    'def seed():',
    '    owner.set(ctx.caller)',
    '',
  ].join('\n');
  for (let i = 0; source.length < targetBytes; i++) source += ROUTER_FUNCTIONS.replaceAll('NN', String(i));
  return source;
}

function medianMs(work: () => void, runs: number): number {
  for (let i = 0; i < 3; i++) work(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

export async function run(): Promise<BenchResult[]> {
  const source = routerSource();
  const check = compileContract('con_router', source);
  if (!check.ok) throw new Error(`the benchmark contract does not compile: ${JSON.stringify(check.diagnostics.slice(0, 3))}`);
  const kb = (Buffer.byteLength(source) / 1000).toFixed(0);
  const irKb = (check.artifact.vm_ir_json.length / 1000).toFixed(0);
  const parse = medianMs(() => parser.parse(source), 30);
  const compile = medianMs(() => compileContract('con_router', source), 30);
  const baseline = { name: `@lezer/python parse of the same ${kb} KB`, value: parse };
  return [
    { name: `parse only, ${kb} KB router (baseline)`, value: parse, unit: 'ms' },
    { name: `compileContract, ${kb} KB router → ${irKb} KB IR`, value: compile, unit: 'ms', baseline, ratio: compile / parse },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printTable(await run());
}
