import assert from 'node:assert/strict';
import { startupPassphrase } from '../../../host/cli/secret-input.js';

describe('the keystore passphrase at start (startupPassphrase)', () => {
  it('takes CHAIN_KEYSTORE_PASSPHRASE first, whatever the mode', async () => {
    assert.equal(await startupPassphrase(true, { mcpStdio: true, env: { CHAIN_KEYSTORE_PASSPHRASE: 'from the environment' }, stdinIsTTY: true }), 'from the environment');
    assert.equal(await startupPassphrase(false, { mcpStdio: false, env: { CHAIN_KEYSTORE_PASSPHRASE: 'from the environment' }, stdinIsTTY: false }), 'from the environment');
  });

  it('never prompts when stdin is the MCP stdio protocol, when stdin is not a terminal, or when there is nothing to unlock', async () => {
    // Each would block on /dev/tty if it prompted; the answer is null at once (the keystore stays locked).
    assert.equal(await startupPassphrase(true, { mcpStdio: true, env: {}, stdinIsTTY: true }), null);
    assert.equal(await startupPassphrase(true, { mcpStdio: false, env: {}, stdinIsTTY: false }), null);
    assert.equal(await startupPassphrase(false, { mcpStdio: false, env: {}, stdinIsTTY: true }), null);
  });
});
