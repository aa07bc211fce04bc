import assert from 'node:assert/strict';
import { loadCommandConfig, type CommandSpec } from '../../../host/cli/run-command.js';

/** CommandSpec.plugins: what a command always loads, whatever its flags set. */
describe('loadCommandConfig', () => {
  const base: CommandSpec = { name: 'chain-test', description: 'test', stdio: 'config', http: 'never' };

  it('loads the plugins a command names even when no flag sets one of their keys (bare chain-dashboard)', async () => {
    const loaded = await loadCommandConfig({ ...base, plugins: ['dashboard'] }, {}, {});
    assert.deepEqual(Object.keys(loaded.file.plugins), ['dashboard']);
  });

  it('evaluates a plugins function on the parsed flags (chain-devnet --bds)', async () => {
    const spec: CommandSpec = { ...base, plugins: (opts) => (opts.bds ? ['devnet', 'bds'] : ['devnet']) };
    assert.deepEqual(Object.keys((await loadCommandConfig(spec, { bds: true }, {})).file.plugins).sort(), ['bds', 'devnet']);
    assert.deepEqual(Object.keys((await loadCommandConfig(spec, {}, {})).file.plugins), ['devnet']);
  });

  it('keeps the options a flag sets for a named plugin', async () => {
    const spec: CommandSpec = { ...base, plugins: ['dashboard'], flagsToConfig: () => ({ 'plugins.dashboard.port': 0 }) };
    assert.equal((await loadCommandConfig(spec, {}, {})).file.plugins.dashboard?.port, 0);
  });
});
