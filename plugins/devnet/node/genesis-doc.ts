import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseJsonExact, type ResultGenesis } from 'chainhost/chain';
import { BLOCK_MAX_GAS, VALIDATOR_POWER } from './block-header.js';
import { rfc3339Nano } from './cometbft-hashing.js';
import { readingHomeFile, RESET_ADVICE } from './home-file-error.js';
import type { ValidatorKey } from './node-identity.js';
import { jsonText } from './json-text.js';
import { StateRoot } from './state-root.js';

/**
 * `<home>/config/genesis.json`, a CometBFT genesis document. The application's genesis state —
 * the list of `{key, value}` writes (values runtime-encoded JSON) that BDS indexes as genesis —
 * sits in `app_state.abci_genesis.genesis` (upstream's name; cometbft-rpc.md §4.12). `app_hash`
 * is the devnet state root of that state, which block 1's header carries.
 */
export type GenesisDoc = ResultGenesis['genesis'] & {
  app_state: { abci_genesis: { hash: string; number: string; genesis: Array<{ key: string; value: unknown }> } };
};

export interface GenesisInput {
  chainId: string;
  timeNanos: bigint;
  validator: ValidatorKey;
  /** State key → runtime-encoded value text. */
  entries: Array<[string, string]>;
  maxBlockBytes: number;
}

export function buildGenesisDoc(input: GenesisInput): GenesisDoc {
  const root = new StateRoot();
  for (const [k, v] of input.entries) root.update(k, undefined, v);
  const appHash = root.hash().toString('hex').toUpperCase();
  return {
    genesis_time: rfc3339Nano(input.timeNanos),
    chain_id: input.chainId,
    initial_height: '1',
    consensus_params: {
      block: { max_bytes: String(input.maxBlockBytes), max_gas: String(BLOCK_MAX_GAS) },
      evidence: { max_age_num_blocks: '100000', max_age_duration: '172800000000000', max_bytes: '1048576' },
      validator: { pub_key_types: ['ed25519'] },
      version: { app: '0' },
      abci: { vote_extensions_enable_height: '0' },
    },
    validators: [{
      address: input.validator.address,
      pub_key: { type: 'tendermint/PubKeyEd25519', value: Buffer.from(input.validator.publicKey).toString('base64') },
      power: String(VALIDATOR_POWER),
      name: 'devnet-validator',
    }],
    app_hash: appHash,
    app_state: {
      abci_genesis: {
        hash: appHash.toLowerCase(),
        number: '0',
        genesis: input.entries.map(([key, text]) => ({ key, value: parseJsonExact(text) })),
      },
    },
  };
}

/** The genesis state back as key → runtime text. */
export function genesisEntries(doc: GenesisDoc): Array<[string, string]> {
  // Back to the runtime text exactly: compact, key order kept, non-ASCII escaped.
  return doc.app_state.abci_genesis.genesis.map(({ key, value }) => [key, asciiEscape(jsonText(value))]);
}

function asciiEscape(text: string): string {
  return text.replace(/[\u007f-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
}

/** Genesis time in ns since the epoch (RFC 3339 with up to 9 fractional digits). */
export function genesisTimeNanos(doc: GenesisDoc): bigint {
  const m = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?Z$/.exec(doc.genesis_time);
  if (!m) throw new Error(`genesis_time ${JSON.stringify(doc.genesis_time)} is not RFC 3339 UTC`);
  const seconds = BigInt(Date.parse(`${m[1]}Z`)) / 1000n;
  return seconds * 1_000_000_000n + BigInt((m[2] ?? '').padEnd(9, '0') || '0');
}

/** The genesis document, or undefined when absent; HomeFileError when it is not one the devnet can run. */
export function readGenesisDoc(file: string): GenesisDoc | undefined {
  if (!existsSync(file)) return undefined;
  return readingHomeFile(file, RESET_ADVICE, () => {
    let doc: GenesisDoc;
    try {
      doc = parseJsonExact(readFileSync(file, 'utf8')) as unknown as GenesisDoc;
    } catch (err) {
      throw new Error(`not valid JSON (${(err as Error).message})`);
    }
    const problem = genesisProblem(doc);
    if (problem) throw new Error(`not a devnet genesis document: ${problem}`);
    genesisTimeNanos(doc);
    return doc;
  });
}

/** What the devnet reads of a genesis document, checked up front instead of failing deep inside start-up. */
function genesisProblem(doc: GenesisDoc): string | undefined {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return 'the document is not a JSON object';
  if (typeof doc.chain_id !== 'string' || !doc.chain_id) return 'chain_id is missing';
  if (typeof doc.genesis_time !== 'string') return 'genesis_time is missing';
  if (typeof doc.app_hash !== 'string') return 'app_hash is missing';
  if (!doc.consensus_params || typeof doc.consensus_params !== 'object') return 'consensus_params is missing';
  const entries = doc.app_state?.abci_genesis?.genesis;
  if (!Array.isArray(entries)) return 'app_state.abci_genesis.genesis is not a list';
  const bad = entries.findIndex((e) => !e || typeof e !== 'object' || typeof e.key !== 'string' || !('value' in e));
  if (bad >= 0) return `app_state.abci_genesis.genesis[${bad}] is not a {key, value} entry`;
  return undefined;
}

export function writeGenesisDoc(file: string, doc: GenesisDoc): void {
  writeFileSync(file, jsonText(doc, 2) + '\n');
}
