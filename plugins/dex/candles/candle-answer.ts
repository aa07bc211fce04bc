import { compactJson, type JsonValue } from 'chainhost/chain';
import type { QueryAnswer } from 'chainhost/plugin';

/** A dict value in the node's ABCI encoding (keys sorted, compact, ASCII-escaped). */
export function abciJsonAnswer(value: Record<string, unknown>): QueryAnswer {
  return { info: 'dict', text: compactJson(value as JsonValue, { asciiOnly: true, sortKeys: true }) };
}
