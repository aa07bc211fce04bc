/**
 * A BDS worker in its own process, for the kill -9 tests: indexes a deterministic synthetic chain
 * into the given database until it is killed. Argument: JSON {db, chain: SyntheticOptions, height}.
 */
import { silentLogger } from '../../../../core/logger.js';
import { BdsService } from '../../../../plugins/bds/bds-service.js';
import type { TestDatabase } from '../../../support/databases.js';
import { testOptions } from './bds-harness.js';
import { SyntheticChain, type SyntheticOptions } from './synthetic-chain.js';

const input = JSON.parse(process.argv[2]!) as { db: TestDatabase; chain: SyntheticOptions; height: number; batchMaxBlocks?: number };
const chain = new SyntheticChain(input.chain);
chain.mine(input.height);
const service = await BdsService.open({
  options: testOptions(input.db, { batchMaxBlocks: input.batchMaxBlocks ?? 16 }),
  home: input.db.home,
  source: chain,
  log: silentLogger,
});
service.start();
process.stdout.write('started\n');
setInterval(() => process.stdout.write(`indexed ${service.follower.indexedHeight}\n`), 100);
