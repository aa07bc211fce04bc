import type { z } from 'zod';
import { redactUrlsIn } from '../net/redact-url.js';

/**
 * Reading and writing config values by path, and describing a value or an issue for a one-line
 * error. Shared by the host's config and every plugin's options, so both report alike.
 */

/** Where one config value came from, so an error can name it the way the user wrote it. */
export interface Origin {
  label: string;
  shown: string;
}

export function setPath(target: Record<string, unknown>, p: readonly string[], value: unknown): void {
  let node: Record<string, unknown> = target;
  for (const key of p.slice(0, -1)) {
    const next = node[key];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[p[p.length - 1]!] = value;
}

export function getPath(value: unknown, p: readonly string[]): unknown {
  let node = value;
  for (const key of p) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** The origin recorded for `p` or the nearest parent of it. */
export function findOrigin(p: readonly string[], origins: ReadonlyMap<string, Origin>): Origin | undefined {
  for (let i = p.length; i > 0; i--) {
    const o = origins.get(p.slice(0, i).join('.'));
    if (o) return o;
  }
  return undefined;
}

export function describeValue(value: unknown): string {
  if (value === undefined) return '(missing)';
  // Redacted before it is shortened: a cut URL would no longer be recognised as one.
  const text = redactUrlsIn(JSON.stringify(value) ?? String(value));
  return text.length > 60 ? text.slice(0, 57) + '...' : text;
}

export function friendly(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((k) => `"${k}"`).join(', ')}`;
  return issue.message.replace(/^Invalid input: /, '');
}
