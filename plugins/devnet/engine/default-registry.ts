import { conDex } from './contracts/con-dex.js';
import { conDexHelper } from './contracts/con-dex-helper.js';
import { conPairs } from './contracts/con-pairs.js';
import { currencyContract } from './contracts/currency.js';
import { lpToken } from './contracts/lp-token.js';
import { shieldedNoteToken } from './contracts/shielded-note.js';
import { chiCostContract, foundationContract, rewardsContract, submissionContract } from './contracts/system.js';
import { xsc001Token } from './contracts/xsc001-token.js';
import { ContractRegistry } from './registry.js';

/** Every native contract the devnet ships: system contracts, currency, token templates and the DEX. */
export function createDefaultRegistry(): ContractRegistry {
  return new ContractRegistry()
    .register(currencyContract)
    .register(chiCostContract)
    .register(rewardsContract)
    .register(foundationContract)
    .register(submissionContract)
    .register(xsc001Token)
    .register(lpToken)
    .register(conPairs)
    .register(conDex)
    .register(conDexHelper)
    .register(shieldedNoteToken);
}
