import { strict as assert } from 'node:assert';
import { bdsConfigSchema } from '../../../plugins/bds/bds.config.js';
import { databaseOptionsOf, spoolDirOf } from '../../../plugins/bds/bds-service.js';

/**
 * Where BDS keeps its PGlite data and spool. A relative path is relative to `home`, the rule
 * the graphql plugin uses for its own `pgliteDir`, so a GraphQL host (or chain-bds-reindex)
 * configured with the same relative path opens the same database wherever it was started from.
 */
describe('BDS data paths', () => {
  it('default under home; relative paths resolve against home, absolute ones stay', () => {
    const defaults = bdsConfigSchema.parse({});
    assert.equal(databaseOptionsOf(defaults, '/srv/chain').pgliteDir, '/srv/chain/bds');
    assert.equal(spoolDirOf(defaults, '/srv/chain'), '/srv/chain/bds-spool');
    const relative = bdsConfigSchema.parse({ pgliteDir: 'index/db', spoolDir: './spool' });
    assert.equal(databaseOptionsOf(relative, '/srv/chain').pgliteDir, '/srv/chain/index/db');
    assert.equal(spoolDirOf(relative, '/srv/chain'), '/srv/chain/spool');
    const absolute = bdsConfigSchema.parse({ pgliteDir: '/data/bds', spoolDir: '/data/spool' });
    assert.equal(databaseOptionsOf(absolute, '/srv/chain').pgliteDir, '/data/bds');
    assert.equal(spoolDirOf(absolute, '/srv/chain'), '/data/spool');
  });
});
