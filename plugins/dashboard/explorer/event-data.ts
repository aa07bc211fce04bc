import type { JsonValue } from 'chainhost/chain';
import { addressLink, amount, amt, plainJson, text } from './format.js';
import { html, type SafeHtml } from './html.js';
import { eventFields } from './tx-description.js';

/** An Ed25519 account key as the chain writes it. */
const ACCOUNT_KEY = /^[0-9a-f]{64}$/i;

/**
 * Fields that hold an account by the chain's conventions (XSC001 `Transfer`/`Approve`, the DEX
 * pair's events, deployments), so a named account (`con_pairs`, `alice`) links as well as a key.
 */
const ACCOUNT_FIELDS = new Set(['to', 'from', 'account', 'owner', 'spender', 'sender', 'recipient', 'developer', 'caller', 'signer', 'main_account', 'operator', 'user', 'trader', 'provider']);

/** One field's value: an account as a short link to its page, an amount readable (exact on hover), anything else as text. */
export function fieldValue(field: string, value: JsonValue | undefined, rpc: string | null): SafeHtml {
  if (typeof value === 'string' && (ACCOUNT_KEY.test(value) || (ACCOUNT_FIELDS.has(field.toLowerCase()) && /^[A-Za-z0-9_.:-]{1,256}$/.test(value)))) {
    return addressLink(value, rpc);
  }
  if (/^-?[0-9]+(\.[0-9]+)?$/.test(amount(value)) && typeof value !== 'string') return amt(value);
  return html`<span class="mono">${text(plainJson(value))}</span>`;
}

/**
 * An event's data (indexed fields and the rest) as a small two-column table — field, value —
 * instead of a JSON line with 64-hex keys. Addresses link to their account pages, carrying the
 * inspected peer (`rpc`).
 */
export function eventDataTable(event: JsonValue, rpc: string | null): SafeHtml {
  const fields = eventFields(event);
  const names = Object.keys(fields);
  if (names.length === 0) return html`<span class="muted">no data</span>`;
  const rows = names.map((name) => html`<tr><th scope="row">${name}</th><td>${fieldValue(name, fields[name], rpc)}</td></tr>`);
  return html`<table class="fields">${rows}</table>`;
}
