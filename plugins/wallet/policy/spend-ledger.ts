import { mkdir, open, readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import { ChainDecimal } from 'chainhost/chain';

/**
 * What each keystore account spent, per token contract, over the last 24 hours — persisted under
 * `<home>/wallet/spend-ledger.json` so a restart does not reset a daily limit. An amount is
 * *reserved* when its transaction passes the policy (inside the sender's nonce lane, so two
 * concurrent sends cannot both fit under one remaining allowance) and *released* only when the
 * node never accepted it; an accepted transaction's amount stays, even if it later fails in its
 * block (its fee was paid; the rest is refunded by the chain, which errs on the safe side here).
 */
export const DAY_MS = 24 * 60 * 60 * 1000;
const LEDGER_VERSION = 1;

interface LedgerEntry {
  id: number;
  account: string;
  token: string;
  amount: string;
  at: number;
}

export class SpendLedger {
  readonly file: string;
  #entries: LedgerEntry[] = [];
  #nextId = 1;
  #writing: Promise<void> = Promise.resolve();

  private constructor(home: string, private readonly now: () => number) {
    this.file = path.join(home, 'wallet', 'spend-ledger.json');
  }

  /** Reads the ledger (an absent file is an empty ledger; a damaged one is an error naming it). */
  static async open(home: string, now: () => number = Date.now): Promise<SpendLedger> {
    const ledger = new SpendLedger(home, now);
    let text: string | null = null;
    try {
      text = await readFile(ledger.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    if (text !== null) {
      let parsed: { version?: unknown; entries?: unknown };
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new Error(`${ledger.file}: not valid JSON; restore it from a backup (deleting it resets every daily limit)`);
      }
      if (parsed.version !== LEDGER_VERSION || !Array.isArray(parsed.entries)) throw new Error(`${ledger.file}: not a spend ledger of version ${LEDGER_VERSION}`);
      ledger.#entries = (parsed.entries as LedgerEntry[]).filter((e) => typeof e.account === 'string' && typeof e.token === 'string' && ChainDecimal.isDecimalText(e.amount) && Number.isFinite(e.at));
      ledger.#nextId = Math.max(0, ...ledger.#entries.map((e) => e.id)) + 1;
    }
    return ledger;
  }

  /** Spent by `account` in the last 24 hours, per token contract. */
  spentToday(account: string): Map<string, ChainDecimal> {
    const since = this.now() - DAY_MS;
    const totals = new Map<string, ChainDecimal>();
    for (const e of this.#entries) {
      if (e.account !== account || e.at <= since) continue;
      totals.set(e.token, (totals.get(e.token) ?? ChainDecimal.ZERO).plus(e.amount));
    }
    return totals;
  }

  /** Records `spent` now and returns a release that takes it back (for a transaction the node refused). */
  async reserve(account: string, spent: ReadonlyMap<string, ChainDecimal>): Promise<() => Promise<void>> {
    const at = this.now();
    const ids = [...spent].filter(([, amount]) => amount.gt(0n)).map(([token, amount]) => {
      const entry = { id: this.#nextId++, account, token, amount: amount.toString(), at };
      this.#entries.push(entry);
      return entry.id;
    });
    await this.#persist();
    return async () => {
      this.#entries = this.#entries.filter((e) => !ids.includes(e.id));
      await this.#persist();
    };
  }

  /** Writes the last 24 hours atomically; writes are serialised so the file is always the latest state. */
  #persist(): Promise<void> {
    const since = this.now() - DAY_MS;
    this.#entries = this.#entries.filter((e) => e.at > since);
    const text = `${JSON.stringify({ version: LEDGER_VERSION, entries: this.#entries })}\n`;
    this.#writing = this.#writing.catch(() => undefined).then(async () => {
      await mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
      const temp = `${this.file}.${process.pid}.tmp`;
      const handle = await open(temp, 'w', 0o600);
      try {
        await handle.writeFile(text);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, this.file);
    });
    return this.#writing;
  }
}
