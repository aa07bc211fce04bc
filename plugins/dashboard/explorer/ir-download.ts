import type Koa from 'koa';
import { ApiError } from 'chainhost/plugin';
import { tx } from '../reads/block-reads.js';
import type { ReadContext } from '../reads/node-targets.js';
import { optionalAbciValue } from '../reads/optional-value.js';
import { payloadOf } from '../reads/tx-decoding.js';
import { deploymentsOf } from './deployment.js';
import { obj } from './format.js';

/** The IR a transaction deployed for `contract` (its `<contract>.__xian_ir_v1__` write). */
export async function irOfTx(r: ReadContext, hash: string, contract: string): Promise<string> {
  const t = await tx(r, hash);
  const d = deploymentsOf(obj(t.tx_result.data_decoded).state, payloadOf(t.tx_decoded)).find((x) => x.contract === contract && x.ir !== null);
  if (!d) throw ApiError.notFound(`transaction ${hash} stored no IR for ${contract}`, { hash, contract });
  return d.ir!;
}

/** The IR a contract runs now (`/contract_ir/<name>`). */
export async function irOfContract(r: ReadContext, name: string): Promise<string> {
  const ir = await optionalAbciValue(r, `/contract_ir/${name}`);
  if (typeof ir !== 'string' || ir === '') throw ApiError.notFound(`contract ${name} has no stored IR`, { name });
  return ir;
}

/**
 * An IR as a JSON file the browser saves (`Content-Disposition: attachment; filename="<contract>.ir.json"`
 * via Koa's `attachment`, which uses the content-disposition package), not a page: no caching, no sniffing.
 */
export function sendIrFile(ctx: Koa.Context, contract: string, ir: string, label = ''): void {
  ctx.attachment(`${contract}${label}.ir.json`);
  ctx.type = 'application/json; charset=utf-8';
  ctx.set({ 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store, max-age=0', 'Content-Security-Policy': "default-src 'none'" });
  ctx.body = ir;
}
