import assert from 'node:assert/strict';
import { compileContract } from '../../../../core/contracting/index.js';
import { CON_DEX_HELPER_SOURCE } from '../../../../plugins/devnet/engine/contracts/con-dex-helper.js';
import { CON_DEX_SOURCE } from '../../../../plugins/devnet/engine/contracts/con-dex.source.js';
import { CON_PAIRS_SOURCE } from '../../../../plugins/devnet/engine/contracts/con-pairs.source.js';
import { CURRENCY_SOURCE } from '../../../../plugins/devnet/engine/contracts/currency.js';
import { LP_TOKEN_SOURCE } from '../../../../plugins/devnet/engine/contracts/lp-token.js';
import { SHIELDED_NOTE_SOURCE } from '../../../../plugins/devnet/engine/contracts/shielded-note.source.js';
import { CHI_COST_SOURCE, FOUNDATION_SOURCE, REWARDS_SOURCE, SUBMISSION_SOURCE } from '../../../../plugins/devnet/engine/contracts/system.js';
import { XSC001_SOURCE } from '../../../../plugins/devnet/engine/contracts/xsc001-token.js';

/**
 * The devnet's canonical contract sources go through the chain's compiler: each compiles to an
 * artifact whose IR defines the exported functions the source declares.
 */
describe('devnet contract sources through compileContract', function () {
  this.timeout(120_000);

  const sources: Record<string, string> = {
    currency: CURRENCY_SOURCE,
    con_test_usd: XSC001_SOURCE,
    con_pairs: CON_PAIRS_SOURCE,
    con_dex: CON_DEX_SOURCE,
    con_dex_helper: CON_DEX_HELPER_SOURCE,
    con_lp_token: LP_TOKEN_SOURCE,
    con_shielded_note: SHIELDED_NOTE_SOURCE,
    chi_cost: CHI_COST_SOURCE,
    rewards: REWARDS_SOURCE,
    foundation: FOUNDATION_SOURCE,
    submission: SUBMISSION_SOURCE,
  };

  for (const [name, source] of Object.entries(sources)) {
    it(`${name} compiles, exporting every @export function of its source`, () => {
      const result = compileContract(name, source);
      assert.ok(result.ok, JSON.stringify(!result.ok && result.diagnostics));
      const ir = JSON.parse(result.artifact.vm_ir_json);
      const exported = ir.functions.filter((f: { visibility: string }) => f.visibility === 'export').map((f: { name: string }) => f.name);
      const declared = [...source.matchAll(/^@export(?:\([^)]*\))?\ndef (\w+)/gm)].map((m) => m[1]);
      assert.deepEqual(exported, declared);
    });
  }
});
