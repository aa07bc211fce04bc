import type { JsonValue } from 'chainhost/chain';
import type { BdsIndexer } from '../indexer-point.js';
import { bulkInsert, type ColumnSpec } from '../writer/bulk-insert.js';
import { isXsc001Source } from './xsc001.js';

/**
 * `contracts` rows (bds.md §2.11, §3 step 7): a successful write of `<name>.__source__` (from a
 * transaction, genesis or a state patch) records the contract, its submission time from
 * `<name>.__submitted__` (else the block time) and whether it is an XSC001 token. Token
 * contracts and balances (`/token_contracts`, `/token_balances`) are read from these rows
 * joined with `state`.
 */
const COLUMNS: ColumnSpec[] = [
  { name: 'name', type: 'text' }, { name: 'last_tx_hash', type: 'text' }, { name: 'submitted_at_block', type: 'bigint' },
  { name: 'submitted_at', type: 'timestamptz' }, { name: 'source', type: 'text' }, { name: 'xsc001', type: 'boolean' },
];

const UPSERT = `ON CONFLICT (name) DO UPDATE SET last_tx_hash = EXCLUDED.last_tx_hash, submitted_at_block = EXCLUDED.submitted_at_block,
  submitted_at = EXCLUDED.submitted_at, source = EXCLUDED.source, xsc001 = EXCLUDED.xsc001`;

const SOURCE_SUFFIX = '.__source__';
const SUBMITTED_SUFFIX = '.__submitted__';

export const contractsIndexer: BdsIndexer = {
  name: 'contracts',
  capability: 'read',
  description: 'deployed contracts and XSC001 token detection',
  apply(block, trx) {
    return this.applyBatch!([block], trx);
  },
  async applyBatch(blocks, trx) {
    const rows = new Map<string, unknown[]>(); // a later deployment of the same name in the run wins
    for (const block of blocks) for (const tx of block.transactions) {
      if (!tx.success) continue;
      const submitted = new Map<string, JsonValue>();
      for (const w of tx.writes) if (w.key.endsWith(SUBMITTED_SUFFIX)) submitted.set(w.key.slice(0, -SUBMITTED_SUFFIX.length), w.value);
      for (const w of tx.writes) {
        if (!w.key.endsWith(SOURCE_SUFFIX) || typeof w.value !== 'string') continue;
        const name = w.key.slice(0, -SOURCE_SUFFIX.length);
        const at = submittedIso(submitted.get(name)) ?? block.time_iso;
        rows.set(name, [name, tx.hash, block.height, at, w.value, isXsc001Source(w.value)]);
      }
    }
    await bulkInsert(trx, 'contracts', COLUMNS, [...rows.values()], { onConflict: UPSERT });
  },
};

/** `{"__time__":[y,m,d,h,mi,s,µs]}` (runtime form) or `"YYYY-MM-DD HH:MM:SS[.ffffff]"` (ABCI form) → ISO UTC. */
export function submittedIso(value: JsonValue | undefined): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'object' && !Array.isArray(value) && Array.isArray(value.__time__)) {
    const p = value.__time__.map((n) => Number(n));
    if (p.length < 3 || p.some((n) => !Number.isInteger(n))) return null;
    const [y, mo, d, h = 0, mi = 0, s = 0, us = 0] = p as number[];
    return `${pad(y!, 4)}-${pad(mo!, 2)}-${pad(d!, 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}${us ? '.' + pad(us, 6) : ''}+00:00`;
  }
  if (typeof value === 'string') {
    const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(\.\d{1,6})?(Z|\+00:00)?$/.exec(value.trim());
    if (m) return `${m[1]}T${m[2]}${m[3] ?? ''}+00:00`;
  }
  return null;
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}
