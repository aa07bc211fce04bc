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

const WHAT_TO_DO = 'correct it (amounts are decimal strings such as "10.5") or restore it from a backup; deleting it resets every daily limit';
/** A JSON number as an amount (a hand-edited file): kept as its exact text, not as a binary float. */
const NUMBER_AMOUNT = /("amount"\s*:\s*)(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)(?=\s*[,}])/g;

/**
 * The ledger's entries, or an error naming the file, the entry and what to do: an entry is
 * never skipped, since dropping one would silently raise what is left of a limit.
 */
function parseLedger(file: string, text: string): LedgerEntry[] {
  let parsed: { version?: unknown; entries?: unknown };
  try {
    parsed = JSON.parse(text.replace(NUMBER_AMOUNT, '$1"$2"'));
  } catch {
    throw new Error(`${file}: not valid JSON; ${WHAT_TO_DO}`);
  }
  if (typeof parsed !== 'object' || parsed === null || parsed.version !== LEDGER_VERSION || !Array.isArray(parsed.entries)) {
    throw new Error(`${file}: not a spend ledger of version ${LEDGER_VERSION} ({"version": 1, "entries": [...]}); ${WHAT_TO_DO}`);
  }
  return (parsed.entries as unknown[]).map((raw, i) => {
    const e = raw as Partial<Record<keyof LedgerEntry, unknown>> | null;
    const problem =
      typeof e !== 'object' || e === null ? 'is not an object'
      : typeof e.account !== 'string' ? 'has no account (a string)'
      : typeof e.token !== 'string' ? 'has no token (a string)'
      : typeof e.amount !== 'string' || !ChainDecimal.isDecimalText(e.amount) || ChainDecimal.parse(e.amount).isNegative() ? `has amount ${JSON.stringify(e.amount)}, not a non-negative decimal`
      : typeof e.at !== 'number' || !Number.isFinite(e.at) ? 'has no time "at" (milliseconds since 1970)'
      : null;
    if (problem) throw new Error(`${file}: entry ${i} ${problem}; ${WHAT_TO_DO}`);
    const id = typeof e!.id === 'number' && Number.isSafeInteger(e!.id) ? e!.id : i + 1;
    return { id, account: e!.account as string, token: e!.token as string, amount: ChainDecimal.parse(e!.amount as string).toString(), at: e!.at as number };
  });
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
    if (text !== null) ledger.#entries = parseLedger(ledger.file, text);
    ledger.#nextId = Math.max(0, ...ledger.#entries.map((e) => e.id)) + 1;
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
