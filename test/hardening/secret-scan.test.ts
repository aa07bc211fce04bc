import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { WebSocket, WebSocketServer } from 'ws';
import { deriveFromMnemonic } from '../../core/chain/hd-wallet.js';
import { publicKeyFromPrivate } from '../../core/chain/keys.js';
import { HexCarry, hexTokens } from '../support/secret-scan/hex-tokens.js';
import { isKeyToolRoute, keyToolCallIds, StdioKeyToolFilter } from '../support/secret-scan/key-tool-responses.js';
import { scanForSecrets } from '../support/secret-scan.js';
import { screenPublicKey } from '../support/secret-scan/public-keys.js';
import { SecretScanner } from '../support/secret-scan/secret-scanner.js';
import { devAccountAddresses, leakReport } from '../support/secret-scan.js';
import { REPO_ROOT } from '../support/test-host.js';

/**
 * The suite-wide secret scan (test/support/secret-scan.ts) must not pass vacuously: its core
 * finds planted keys in synthetic output, its capture is live in this very run, and a mocha
 * run of one file that serves a key next to its address fails with the source and the key
 * masked.
 */
const DEV_KEY = deriveFromMnemonic('test test test test test test test test test test test junk', { index: 3 }).privateKey;
const fresh = () => randomBytes(32).toString('hex');

describe('hardening: the secret scan', function () {
  this.timeout(120_000);

  describe('core', () => {
    it('takes exactly the 64- and 128-hex runs as tokens, case-insensitively', () => {
      const k = fresh();
      const text = `a=${k} b=0x${k.toUpperCase()} c=${k}${k} d=${k.slice(1)} e=${k}f g=${k}${k}ab "${k.slice(0, 32)}"`;
      assert.deepEqual(hexTokens(text), [k, k, k + k]);
    });

    it('finds a token split across chunks at any position, and not a longer run split the same way', () => {
      const k = fresh();
      for (let cut = 0; cut <= 70; cut++) {
        const text = `key: ${k}\n`;
        const scanner = new SecretScanner();
        const stream = scanner.stream('s');
        stream.write(text.slice(0, cut));
        stream.write(text.slice(cut));
        stream.end();
        assert.ok(scanner.has(k), `cut at ${cut}`);
      }
      const carry = new HexCarry();
      const long = 'a'.repeat(300);
      const pieces = [carry.take(`x${long.slice(0, 100)}`), carry.take(long.slice(100, 200)), carry.take(`${long.slice(200)} y`), carry.flush()];
      assert.deepEqual(pieces.flatMap(hexTokens), []);
      // Held back: no more than one token-length-and-a-bit per stream, whatever the input.
      carry.take('b'.repeat(100_000));
      assert.ok(carry.flush().length <= 129);
    });

    it('reports a planted key next to its address, a dev account key alone, and an expanded secret key, with source and mask', () => {
      const scanner = new SecretScanner();
      const planted = fresh();
      const plantedAddress = publicKeyFromPrivate(planted);
      const expanded = fresh();
      const lonely = fresh();
      scanner.scan(`2024-01-01 info sent {"from":"${plantedAddress}","hash":"${fresh()}"}\n`, 'test "a" › stderr of the test process');
      const stream = scanner.stream(() => 'test "b" › HTTP response to POST /api/x');
      stream.write(`{"k":"${planted.slice(0, 10)}`);
      stream.write(`${planted.slice(10)}","dev":"${DEV_KEY}","lonely":"${lonely}","sk":"${expanded}${publicKeyFromPrivate(expanded)}"}`);
      stream.end();

      const leaks = scanner.leaks(devAccountAddresses(5));
      const byKey = new Map(leaks.map((l) => [l.publicKey, l]));
      assert.equal(leaks.length, 3, JSON.stringify(leaks, null, 1));
      assert.match(byKey.get(plantedAddress)!.reason, /its public key appears too, first in test "a" › stderr/);
      assert.equal(byKey.get(plantedAddress)!.source, 'test "b" › HTTP response to POST /api/x');
      assert.equal(byKey.get(plantedAddress)!.masked, `${planted.slice(0, 4)}…${planted.slice(-4)} (64 hex)`);
      assert.match(byKey.get(publicKeyFromPrivate(DEV_KEY))!.reason, /dev account/);
      assert.match(byKey.get(publicKeyFromPrivate(expanded))!.reason, /expanded secret key/);
      assert.ok(!byKey.has(publicKeyFromPrivate(lonely)), 'a key whose identity never shows is not a finding');
      const report = leakReport(leaks);
      for (const key of [planted, DEV_KEY, expanded]) assert.ok(!report.includes(key.slice(4, 60)), 'the report masks every key');
    });

    it('finds nothing in output made of addresses, hashes and signatures', () => {
      const scanner = new SecretScanner();
      for (let i = 0; i < 50; i++) scanner.scan(`${publicKeyFromPrivate(fresh())} ${fresh()} ${fresh()}${fresh()}`, 'x');
      assert.deepEqual(scanner.leaks(devAccountAddresses(3)), []);
    });

    it('screens public keys exactly as core/chain/keys.ts derives them', () => {
      for (const key of [DEV_KEY, ...Array.from({ length: 20 }, fresh)]) assert.equal(screenPublicKey(key), publicKeyFromPrivate(key));
    });

    it('leaves out exactly the answers of the key-returning wallet tools', () => {
      for (const name of ['create_wallet', 'create_wallet_from_private_key', 'create_hd_wallet', 'create_hd_wallet_from_mnemonic']) {
        assert.equal(isKeyToolRoute('POST', `/tools/${name}`), true, name);
        assert.equal(isKeyToolRoute('POST', `/tools/${name}?x=1`), true, name);
      }
      for (const [method, url] of [['POST', '/tools/send_tokens'], ['POST', '/tools/create_wallet/x'], ['POST', '/api/tools/create_wallet'], ['GET', '/tools/create_wallet'], ['POST', '/tools/create_wallets']]) {
        assert.equal(isKeyToolRoute(method, url), false, `${method} ${url}`);
      }
      const call = (id: unknown, name: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } });
      assert.deepEqual(keyToolCallIds(JSON.stringify(call(7, 'create_hd_wallet'))), [7]);
      assert.deepEqual(keyToolCallIds(JSON.stringify([call(1, 'get_balance'), call('a', 'create_wallet')])), ['a']);
      assert.deepEqual(keyToolCallIds(JSON.stringify(call(2, 'sign_message'))), []);
      assert.deepEqual(keyToolCallIds('not json'), []);
      // store_as keeps the key on the host: that answer holds no key and is scanned.
      const stored = { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'create_wallet', arguments: { store_as: 'alice' } } };
      assert.deepEqual(keyToolCallIds(JSON.stringify(stored)), []);

      const filter = new StdioKeyToolFilter();
      filter.sent(JSON.stringify(call(4, 'create_wallet')).slice(0, 20));
      filter.sent(JSON.stringify(call(4, 'create_wallet')).slice(20) + '\n' + JSON.stringify(call(5, 'send_tokens')) + '\n');
      assert.equal(filter.answersKeyTool(JSON.stringify({ jsonrpc: '2.0', id: 5, result: {} })), false);
      assert.equal(filter.answersKeyTool(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'sampling/createMessage' })), false, 'a server request with the same id');
      assert.equal(filter.answersKeyTool(JSON.stringify({ jsonrpc: '2.0', id: 4, result: {} })), true);
      assert.equal(filter.answersKeyTool(JSON.stringify({ jsonrpc: '2.0', id: 4, result: {} })), false, 'once');
    });
  });

  describe('capture in this run', () => {
    const live = () => {
      const scan = (globalThis as Record<symbol, { scanner: SecretScanner } | undefined>)[Symbol.for('chainhost.test.secretScan')];
      assert.ok(scan, 'the root-hook plugin is loaded (.mocharc.json require)');
      return scan.scanner;
    };

    it('takes what the capture cannot see — in-memory MCP messages, keystore files — through scanForSecrets', () => {
      const token = fresh();
      scanForSecrets(`{"jsonrpc":"2.0","id":1,"result":{"x":"${token}"}}`, 'an in-memory MCP message');
      assert.equal(live().has(token), true);
    });

    it('sees in-process HTTP responses, except the key-returning tools by route or MCP tools/call', async () => {
      const server = http.createServer((req, res) => {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => res.end(JSON.stringify({ token: req.headers['x-token'], size: body.length })));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const send = async (route: string, body: unknown) => {
        const token = fresh();
        await (await fetch(base + route, { method: 'POST', headers: { 'x-token': token }, body: JSON.stringify(body) })).text();
        return live().has(token);
      };
      try {
        assert.equal(await send('/api/anything', {}), true);
        assert.equal(await send('/tools/get_balance', {}), true);
        assert.equal(await send('/tools/create_wallet', {}), false);
        assert.equal(await send('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create_hd_wallet', arguments: {} } }), false);
        assert.equal(await send('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_balance', arguments: {} } }), true);
      } finally {
        server.close();
      }
    });

    it('sees what this process writes to stdout and stderr', () => {
      const token = fresh();
      process.stderr.write(`      (secret-scan self-test marker ${token})\n`);
      assert.equal(live().has(token), true);
    });

    it('sees WebSocket messages sent by an in-process server', async () => {
      const token = fresh();
      const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
      wss.on('connection', (socket) => socket.send(JSON.stringify({ token })));
      await new Promise((resolve) => wss.once('listening', resolve));
      const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
      try {
        await new Promise((resolve, reject) => client.once('message', resolve).once('error', reject));
        assert.equal(live().has(token), true);
      } finally {
        client.close();
        await new Promise((resolve) => wss.close(resolve));
      }
    });

    it('sees child processes\' stdout and stderr without consuming them, and leaves out MCP stdio answers of key tools', async () => {
      // A line-oriented JSON-RPC echo: answers each request with a fresh token in its result.
      const script = `
        const { randomBytes } = require('node:crypto');
        console.error('started ' + process.argv[1]);
        require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
          const { id } = JSON.parse(line);
          console.log(JSON.stringify({ jsonrpc: '2.0', id, result: { token: randomBytes(32).toString('hex') } }));
        });`;
      const stderrToken = fresh();
      const child = spawn(process.execPath, ['-e', script, stderrToken], { stdio: ['pipe', 'pipe', 'pipe'] });
      // Read only later: the tap must not eat output that arrives before the test listens.
      await new Promise((resolve) => setTimeout(resolve, 500));
      const answers: Array<{ id: number; result: { token: string } }> = [];
      let stderr = '';
      child.stderr.on('data', (c) => (stderr += c));
      let buffered = '';
      const got = new Promise<void>((resolve) => child.stdout.on('data', (c) => {
        buffered += c;
        const lines = buffered.split('\n');
        buffered = lines.pop()!;
        for (const line of lines) answers.push(JSON.parse(line));
        if (answers.length === 2) resolve();
      }));
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create_wallet', arguments: {} } }) + '\n');
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_balance', arguments: {} } }) + '\n');
      await got;
      child.stdin.end();
      await new Promise((resolve) => child.once('close', resolve));
      assert.match(stderr, new RegExp(`started ${stderrToken}`));
      assert.equal(live().has(stderrToken), true, 'child stderr');
      assert.equal(live().has(answers.find((a) => a.id === 2)!.result.token), true, 'an ordinary answer on child stdout');
      assert.equal(live().has(answers.find((a) => a.id === 1)!.result.token), false, 'the answer to create_wallet');
    });
  });

  describe('a mocha run of one file', () => {
    const FIXTURE = path.join(REPO_ROOT, 'test/hardening/fixtures/planted-leak.fixture.ts');
    const runFixture = (route: string) => new Promise<{ code: number | null; output: string }>((resolve) => {
      const env: NodeJS.ProcessEnv = { ...process.env, PLANTED_LEAK_ROUTE: route };
      delete env.CHAIN_SECRET_SCAN_STATS;
      const child = spawn(process.execPath, [path.join(REPO_ROOT, 'node_modules/mocha/bin/mocha.js'), FIXTURE], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (c) => (output += c));
      child.stderr.on('data', (c) => (output += c));
      child.once('close', (code) => resolve({ code, output }));
    });

    it('fails when a served response holds a private key next to its address, naming the test, the route and the masked key', async () => {
      const { code, output } = await runFixture('/api/leaky');
      assert.notEqual(code, 0, output);
      const address = /planted address ([0-9a-f]{64})/.exec(output)?.[1];
      assert.ok(address, output);
      assert.match(output, /secret scan: 1 private key\(s\) in the run's logs or responses/);
      assert.match(output, new RegExp(`key [0-9a-f]{4}…[0-9a-f]{4} \\(64 hex\\) of ${address}: its public key appears in the same place`));
      assert.match(output, /first seen in test "planted leak serves a private key next to its address" \(test\/hardening\/fixtures\/planted-leak\.fixture\.ts\) › HTTP response to POST \/api\/leaky/);
      assert.match(output, /tests: 1 passed, 1 failed/);
    });

    it('passes when the same answer comes from a key-returning wallet tool', async () => {
      const { code, output } = await runFixture('/tools/create_wallet');
      assert.equal(code, 0, output);
      assert.doesNotMatch(output, /secret scan/);
      assert.match(output, /tests: 1 passed, 0 failed/);
    });
  });
});
