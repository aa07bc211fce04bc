import { createHash } from 'node:crypto';
import { decodeRawTx, decodeTxResultData, type JsonObject, type JsonValue } from 'chainhost/chain';

/**
 * The decoded convenience fields the dashboard adds to CometBFT answers (dashboard.md §4.3–4.5):
 * a raw tx (base64 → hex text → JSON) with its CometBFT hash, and the execution output in
 * `tx_result.data`.
 */
export type DecodedTx = JsonObject & { tx_hash: string };

/** `decoded_txs[i]`: the signed tx `{metadata, payload}` plus `tx_hash`; `{raw, tx_hash, error}` when it does not decode. */
export function decodeTx(base64: string): DecodedTx {
  try {
    const decoded = decodeRawTx(base64);
    const tx = decoded.tx;
    if (tx !== null && typeof tx === 'object' && !Array.isArray(tx)) return { ...tx, tx_hash: decoded.hash };
    return { raw: base64, tx_hash: decoded.hash, error: 'the transaction JSON is not an object' };
  } catch (err) {
    return { raw: base64, tx_hash: sha256Upper(base64), error: err instanceof Error ? err.message : String(err) };
  }
}

/** `data_decoded`: the execution output, `{error}` for a tx rejected inside the block, undefined when there is no data. */
export function decodeResultData(data: string | null | undefined): JsonValue | undefined {
  const decoded = decodeTxResultData(data);
  switch (decoded.kind) {
    case 'execution':
      return decoded.output as unknown as JsonObject;
    case 'rejected':
      return { error: decoded.error };
    case 'unrecognized':
      return decoded.json ?? decoded.text;
    case 'empty':
      return undefined;
  }
}

/** The fields the explorer and the `new_block` message show of a decoded tx's payload. */
export function payloadOf(tx: JsonValue | undefined): Record<string, JsonValue> {
  if (tx && typeof tx === 'object' && !Array.isArray(tx)) {
    const payload = (tx as JsonObject).payload;
    if (payload && typeof payload === 'object' && !Array.isArray(payload)) return payload as Record<string, JsonValue>;
  }
  return {};
}

function sha256Upper(base64: string): string {
  return createHash('sha256').update(Buffer.from(base64, 'base64')).digest('hex').toUpperCase();
}
