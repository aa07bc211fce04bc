import type { QueryAnswer } from 'chainhost/plugin';
import { abciDictText } from '../block/json-text.js';

/** Handler results in the node's value encoding (abci-query.md §3.1): dict/list → sorted compact ASCII JSON; null → no value. */
export function answer(value: unknown): QueryAnswer {
  if (value === null || value === undefined) return { info: '', text: null };
  if (Array.isArray(value)) return { info: 'list', text: abciDictText(value) };
  return { info: 'dict', text: abciDictText(value) };
}
