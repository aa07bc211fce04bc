import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { JsonObject } from '../../../../core/chain/canonical-json.js';
import { encodeTransaction, signTransaction, type EncodedTransaction } from '../../../../core/chain/transaction.js';
import { Devnet, type DevnetOptions } from '../../../../plugins/devnet/node/devnet.js';

/** Test helpers: devnets in temp homes, signed transfers, JSON-RPC-form calls. */
export function tempHome(): { dir: string; remove(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'devnet-test-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function openDevnet(options: Partial<DevnetOptions> = {}): Promise<{ devnet: Devnet; home: string; close(): Promise<void> }> {
  const home = options.home ?? tempHome().dir;
  const devnet = await Devnet.open({ accounts: 3, ...options, home, config: { fsync: false, ...options.config } });
  return {
    devnet,
    home,
    close: async () => {
      await devnet.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

export interface TxSpec {
  privateKey: string;
  sender: string;
  nonce: number;
  chainId?: string;
  contract?: string;
  function?: string;
  kwargs?: JsonObject;
  chi?: number;
}

export function signedTx(spec: TxSpec): EncodedTransaction {
  const tx = signTransaction({
    chain_id: spec.chainId ?? 'chain-local-1',
    chi_supplied: spec.chi ?? 1000,
    contract: spec.contract ?? 'currency',
    function: spec.function ?? 'transfer',
    kwargs: spec.kwargs ?? { amount: { __fixed__: '5' }, to: 'b'.repeat(64) },
    nonce: spec.nonce,
    sender: spec.sender,
  }, spec.privateKey);
  return encodeTransaction(tx);
}

/** The JSON-RPC form of a raw tx: base64 of the hex text. */
export function txParam(hex: string): string {
  return Buffer.from(hex, 'utf8').toString('base64');
}

/** A query value as text (`null` when there is none). */
export function valueText(response: { value: string | null }): string | null {
  return response.value === null ? null : Buffer.from(response.value, 'base64').toString('utf8');
}

export async function abciQuery(devnet: Devnet, pathText: string, extra: Record<string, unknown> = {}) {
  const r = await devnet.rpc.call<{ response: any }>('abci_query', { path: pathText, ...extra });
  return r.response as { code: number; log: string; info: string; key: string | null; value: string | null; height: string; index: string; proofOps: null; codespace: string };
}

export function decodeData(data: string | null): any {
  return data === null ? null : JSON.parse(Buffer.from(data, 'base64').toString('utf8'));
}

export async function waitFor<T>(probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 30_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== null && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
