import type { HttpAnswer } from './compat-servers.js';

/**
 * The result side of the differential test: two HTTP answers are equal when their status and
 * their JSON bodies, with object keys sorted, are the same text. Only what a server draws at
 * random is replaced first: the error id of a masked error (`id: '…'`, `extensions.errorId`)
 * and the hash next to it, a digest of the server's own log line (the internal error text and
 * query position), which names a log entry rather than the answer.
 */
export const MASKED_MESSAGE = "An error occurred (logged with hash: '<hash>', id: '<id>')";
const MASKED = /^An error occurred \(logged with hash: '[^']*', id: '[^']*'\)$/;

export function normalizeAnswer(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalizeAnswer);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (key === 'message' && typeof v === 'string' && MASKED.test(v)) out[key] = MASKED_MESSAGE;
      else if (key === 'errorId' && typeof v === 'string') out[key] = '<id>';
      else out[key] = normalizeAnswer(v);
    }
    return out;
  }
  return value;
}

export function canonicalAnswer(answer: HttpAnswer): string {
  return JSON.stringify({ status: answer.status, body: normalizeAnswer(answer.body) });
}

/** Up to `limit` JSON paths where two normalised values differ, with both sides. */
export function valueDifferences(a: unknown, b: unknown, limit = 6, at = '$', out: string[] = []): string[] {
  if (out.length >= limit) return out;
  if (JSON.stringify(a) === JSON.stringify(b)) return out;
  const isObj = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) out.push(`${at}: ${a.length} items  ≠  ${b.length} items`);
    for (let i = 0; i < Math.min(a.length, b.length) && out.length < limit; i++) valueDifferences(a[i], b[i], limit, `${at}[${i}]`, out);
    return out;
  }
  if (isObj(a) && isObj(b)) {
    const ra = a as Record<string, unknown>;
    const rb = b as Record<string, unknown>;
    for (const key of [...new Set([...Object.keys(ra), ...Object.keys(rb)])].sort()) {
      if (out.length >= limit) break;
      if (!(key in rb)) out.push(`${at}.${key}: only in PostGraphile: ${short(ra[key])}`);
      else if (!(key in ra)) out.push(`${at}.${key}: only in chainhost: ${short(rb[key])}`);
      else valueDifferences(ra[key], rb[key], limit, `${at}.${key}`, out);
    }
    return out;
  }
  out.push(`${at}: PostGraphile ${short(a)}  ≠  chainhost ${short(b)}`);
  return out;
}

function short(v: unknown): string {
  const text = JSON.stringify(v) ?? 'undefined';
  return text.length > 160 ? `${text.slice(0, 157)}...` : text;
}

/**
 * Two normalised answers that are equal once every error message PostGraphile masks is taken
 * as given: our answer there may carry a message that says what is wrong, and nothing else may
 * differ (status, data, paths, locations, extensions with their error id).
 */
export function equalButMaskedMessages(reference: unknown, ours: unknown): boolean {
  const errorsOf = (a: unknown) => ((a as { body?: { errors?: unknown } } | null)?.body?.errors);
  const theirs = errorsOf(reference);
  const mine = errorsOf(ours);
  if (!Array.isArray(theirs) || !Array.isArray(mine) || theirs.length !== mine.length) return false;
  const copy = JSON.parse(JSON.stringify(ours)) as { body: { errors: Array<Record<string, unknown>> } };
  let masked = false;
  theirs.forEach((e: { message?: unknown }, i) => {
    if (e?.message === MASKED_MESSAGE && copy.body.errors[i]) {
      copy.body.errors[i]!.message = MASKED_MESSAGE;
      masked = true;
    }
  });
  return masked && JSON.stringify(reference) === JSON.stringify(copy);
}
