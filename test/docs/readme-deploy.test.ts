import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { bootDocStack, warmDryRuns, commandLines, commandShims, curlJson, DEV0, readDoc, runFile, shellEnv, testedBlock, type DocStack } from '../support/doc-blocks.js';

/**
 * README "Deploy your own contract", plain HTTP: the set-up block as a user runs it (the two
 * variables, `npx chain-keys import` of the first dev account from the public mnemonic), the
 * start line as `npm start` runs it (in-process, from the same environment), then the deploy and
 * call block with the real curl. The first dev account is funded at genesis, so the deployment
 * pays its fee (the example once signed as an account the README creates with no funds).
 */
describe('README: deploy a contract over the plain HTTP tool API', function () {
  this.timeout(180_000);
  let dir: string;
  let stack: DocStack;
  let env: Record<string, string>;

  before(async function () {
    this.timeout(240_000);
    const readme = await readDoc('README.md');
    dir = await mkdtemp(path.join(os.tmpdir(), 'readme-deploy-'));
    const home = path.join(dir, 'home');
    const setUp = commandLines(testedBlock(readme, 'deploy-setup').body);
    assert.equal(setUp.length, 3, setUp.join('\n'));
    assert.equal(setUp[2], 'CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS=1 npm start', 'the last line starts the stack with the unsafe tools on');
    // Lines 1 and 2 in one shell, in the checkout's home (CHAIN_HOME stands for the checkout's .chain); it reports the two variables it exported.
    const bin = await commandShims(dir);
    const { stdout } = await runFile('bash', ['-e', '-c', `${setUp[0]}\n${setUp[1]}\nprintf '\\n%s\\n%s\\n' "$CHAIN_KEYSTORE_PASSPHRASE" "$CHAIN_MCP_HTTP_TOKEN"`], {
      cwd: dir, env: shellEnv(bin, { CHAIN_HOME: home }),
    });
    const out = stdout.split('\n');
    const [passphrase, token] = out.slice(-3, -1) as [string, string];
    assert.match(stdout, new RegExp(`^imported dev0 ${DEV0.address}$`, 'm'), 'the first dev account, as the devnet derives it');
    assert.match(token, /^[0-9a-f]{48}$/);
    env = { CHAIN_MCP_HTTP_TOKEN: token, CHAIN_KEYSTORE_PASSPHRASE: passphrase };
    stack = await bootDocStack({
      dir, home,
      env: { CHAIN_MCP_ENABLE_UNSAFE_WALLET_TOOLS: '1', CHAIN_MCP_HTTP_TOKEN: token },
      boot: { keystore: { passphrase: async () => passphrase } },
    });
    await warmDryRuns(stack);
  });

  after(async () => {
    await stack?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('deploy-contract: deploy_contract as dev0 succeeds, and the call returns 1', async () => {
    const lines = commandLines(testedBlock(await readDoc('README.md'), 'deploy-contract').body);
    assert.equal(lines.length, 2);
    const deployed = await curlJson(lines[0]!, stack.substitute, env);
    assert.equal(deployed.result.success, true, JSON.stringify(deployed));
    assert.deepEqual(deployed.result.deployed.methods.map((m: { name: string }) => m.name), ['increment']);
    const called = await curlJson(lines[1]!, stack.substitute, env);
    assert.equal(called.result.success, true, JSON.stringify(called));
    assert.equal(called.result.result, '1', JSON.stringify(called.result));
  });
});
