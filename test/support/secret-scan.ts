/**
 * Mocha root-hook plugin (registered in .mocharc.json `require`, so it runs with any set of
 * test files, a single one included): scans everything the run prints and serves for private
 * keys printed next to their own public identity, and fails the run when it finds one.
 *
 * The capture (support/secret-scan/capture.ts) keeps only the distinct hex tokens with where
 * each was first seen; the public keys are derived once, after the last test.
 */
import path from 'node:path';
import Mocha from 'mocha';
import { deriveCanonicalKey, mnemonicToSeed } from '../../core/chain/hd-wallet.js';
import { publicKeyFromPrivate } from '../../core/chain/keys.js';
import { installCapture, type Capture } from './secret-scan/capture.js';
import { SecretScanner, type KeyLeak } from './secret-scan/secret-scanner.js';

/** The devnet's default mnemonic (plugins/devnet): its accounts are identities even when their address never shows up. */
const DEV_MNEMONIC = 'test test test test test test test test test test test junk';
const DEV_ACCOUNT_COUNT = 20;

interface SuiteScan {
  scanner: SecretScanner;
  capture: Capture;
  label: string;
}

/*
 * One scan per process, kept on globalThis: test files may load this module again through
 * another module graph (CommonJS and ESM), which must not install a second capture. The
 * self-test reads the same object to prove the capture is live.
 */
const KEY = Symbol.for('chainhost.test.secretScan');
const registry = globalThis as typeof globalThis & { [KEY]?: SuiteScan };

function suiteScan(): SuiteScan {
  let scan = registry[KEY];
  if (!scan) {
    const scanner = new SecretScanner();
    const state = { label: 'before the first test' } as SuiteScan;
    state.scanner = scanner;
    state.capture = installCapture(scanner, () => state.label);
    registry[KEY] = scan = state;
    followRunner(state);
  }
  return scan;
}

/** Names the runnable in progress (tests and hooks alike) from the runner's events. */
function followRunner(state: SuiteScan): void {
  const { Runner } = Mocha;
  const { EVENT_TEST_BEGIN, EVENT_HOOK_BEGIN } = Runner.constants;
  const where = (file: string | undefined) => (file ? ` (${path.relative(process.cwd(), file)})` : '');
  const run = Runner.prototype.run;
  Runner.prototype.run = function (this: Mocha.Runner, ...args: Parameters<typeof run>) {
    this.on(EVENT_TEST_BEGIN, (test: Mocha.Test) => { state.label = `test "${test.fullTitle()}"${where(test.file)}`; });
    this.on(EVENT_HOOK_BEGIN, (hook: Mocha.Hook) => {
      const suite = hook.parent?.fullTitle() || '(root)';
      state.label = `${hook.originalTitle ?? hook.title} of "${suite}"${where(hook.file ?? hook.parent?.file)}`;
    });
    return run.apply(this, args);
  };
}

export function devAccountAddresses(count = DEV_ACCOUNT_COUNT): string[] {
  const seed = mnemonicToSeed(DEV_MNEMONIC);
  return Array.from({ length: count }, (_, i) => publicKeyFromPrivate(deriveCanonicalKey(seed, i)));
}

export function leakReport(leaks: KeyLeak[]): string {
  return [
    `secret scan: ${leaks.length} private key(s) in the run's logs or responses:`,
    ...leaks.map((l) => `  key ${l.masked} of ${l.publicKey}: ${l.reason}\n    first seen in ${l.source}`),
  ].join('\n');
}

suiteScan();

/**
 * Feeds text the capture cannot see to the run's scan — every MCP message of an in-memory
 * session, both directions, and files such as the keystore's — so a private key in it fails the
 * run like one printed or served.
 */
export function scanForSecrets(text: string, source: string): void {
  suiteScan().scanner.scan(text, () => `${suiteScan().label} › ${source}`);
}

export const mochaHooks = {
  afterAll: function secretScanOfTheRun(this: Mocha.Context) {
    this.timeout(10 * 60_000);
    const scan = suiteScan();
    scan.capture.stop();
    const started = performance.now();
    const leaks = scan.scanner.leaks(devAccountAddresses());
    if (process.env.CHAIN_SECRET_SCAN_STATS) {
      const { tokens, sources, charsScanned } = scan.scanner.stats;
      process.stderr.write(`secret scan: ${charsScanned} characters, ${tokens} distinct hex tokens from ${sources} sources, checked in ${Math.round(performance.now() - started)} ms, ${leaks.length} leak(s)\n`);
    }
    if (leaks.length > 0) throw new Error(leakReport(leaks));
  },
};
