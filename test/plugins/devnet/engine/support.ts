import { canonicalJson, compareCodePoints, type JsonObject } from '../../../../core/chain/canonical-json.js';
import { ChainDecimal } from '../../../../core/chain/decimal.js';
import { encodeValue } from '../../../../core/chain/value-codec.js';
import type { ChainValue } from '../../../../core/chain/values.js';
import { ChainDatetime, chainRecord } from '../../../../core/chain/values.js';
import { Executor, type EngineConfig } from '../../../../plugins/devnet/engine/executor.js';
import { buildGenesis, type GenesisOptions } from '../../../../plugins/devnet/engine/genesis.js';
import type { BlockEnv, ExecuteOptions, ExecutionOutcome, SignedTx, StateReader } from '../../../../plugins/devnet/engine/types.js';
import { WriteBuffer } from '../../../../plugins/devnet/engine/write-buffer.js';

export const ALICE = 'a'.repeat(64);
export const BOB = 'b'.repeat(64);
export const CAROL = 'c'.repeat(64);
export const DAVE = 'd'.repeat(64);
export const CHAIN_ID = 'chain-local-1';
export const NOW = ChainDatetime.fromParts(2026, 1, 1);
export const DEADLINE = ChainDatetime.fromParts(2026, 1, 2);

export const D = (s: string | bigint): ChainDecimal => (typeof s === 'bigint' ? ChainDecimal.from(s) : ChainDecimal.parse(s));

/** An in-memory committed state: what the node's store would be. */
export class MapState implements StateReader {
  readonly map = new Map<string, ChainValue>();

  get(key: string): ChainValue | undefined {
    return this.map.get(key);
  }

  keys(prefix: string, options?: { after?: string; limit?: number }): string[] {
    let out = [...this.map.keys()].filter((k) => k.startsWith(prefix)).sort(compareCodePoints);
    if (options?.after !== undefined) out = out.filter((k) => compareCodePoints(k, options.after!) > 0);
    if (options?.limit !== undefined) out = out.slice(0, options.limit);
    return out;
  }

  apply(writes: ReadonlyArray<{ key: string; value: ChainValue | null }>): void {
    for (const { key, value } of writes) {
      if (value === null) this.map.delete(key);
      else this.map.set(key, value);
    }
  }
}

export function blockEnv(height = 1n, now = NOW, chainId = CHAIN_ID): BlockEnv {
  return { chainId, height, hash: 'ab'.repeat(32), nanos: now.epochMicros * 1000n, now };
}

export interface TxSpec {
  sender: string;
  contract: string;
  function: string;
  kwargs?: Record<string, ChainValue>;
  nonce?: number;
  chi?: number;
  chainId?: string;
}

/** A signed-looking transaction (the engine does not check signatures), kwargs in wire form. */
export function makeTx(spec: TxSpec): SignedTx {
  const kwargs = encodeValue(chainRecord(Object.entries(spec.kwargs ?? {})), 'wire') as JsonObject;
  const payload = {
    chain_id: spec.chainId ?? CHAIN_ID,
    chi_supplied: spec.chi ?? 100_000,
    contract: spec.contract,
    function: spec.function,
    kwargs,
    nonce: spec.nonce ?? 0,
    sender: spec.sender,
  };
  const signature = '00'.repeat(64);
  const wire = canonicalJson({ metadata: { signature }, payload } as unknown as JsonObject);
  return { payload, signature, rawHex: Buffer.from(wire, 'utf8').toString('hex') };
}

/** A tiny node: committed MapState, nonces, one block per transaction. */
export class TestChain {
  readonly state = new MapState();
  readonly executor: Executor;
  readonly nonces = new Map<string, number>();
  height = 1n;
  now = NOW;

  constructor(config: EngineConfig = {}) {
    this.executor = new Executor(config);
  }

  static withGenesis(options: Partial<GenesisOptions> = {}, config: EngineConfig = {}): TestChain {
    const chain = new TestChain(config);
    const genesis = buildGenesis({ chainId: CHAIN_ID, accounts: [ALICE, BOB, CAROL], genesisTime: NOW, ...options });
    chain.state.apply(genesis.writes);
    return chain;
  }

  env(): BlockEnv {
    return blockEnv(this.height, this.now);
  }

  /** Executes and commits (writes applied for status 0 and 1, as the node does). */
  send(sender: string, contract: string, fn: string, kwargs: Record<string, ChainValue> = {}, opts: { chi?: number } = {}): ExecutionOutcome {
    const nonce = this.nonces.get(sender) ?? 0;
    const tx = makeTx({ sender, contract, function: fn, kwargs, nonce, chi: opts.chi ?? 1_000_000 });
    const outcome = this.executor.execute(tx, this.env(), this.state);
    this.state.apply(outcome.writes);
    this.nonces.set(sender, nonce + 1);
    this.height += 1n;
    return outcome;
  }

  simulate(sender: string, contract: string, fn: string, kwargs: Record<string, ChainValue> = {}, options: ExecuteOptions['simulate'] = { maxChi: 1_000_000 }): ExecutionOutcome {
    const tx = makeTx({ sender, contract, function: fn, kwargs, nonce: 0, chi: 1 });
    return this.executor.execute(tx, this.env(), this.state, { simulate: options });
  }

  /** A fee-free call committed directly (setup). */
  call(sender: string, contract: string, fn: string, kwargs: Record<string, ChainValue> = {}): ChainValue {
    const buffer = new WriteBuffer(this.state);
    const r = this.executor.run({ sender, contract, function: fn, kwargs: chainRecord(Object.entries(kwargs)) }, this.env(), buffer);
    if (r.status !== 0) throw new Error(`${contract}.${fn}: ${r.error}`);
    this.state.apply(buffer.entries());
    return r.result ?? null;
  }

  get(key: string): ChainValue | undefined {
    return this.state.get(key);
  }

  /** The value's ABCI plain form (decimals as "1000", ints as digits), for compact assertions. */
  text(key: string): string | undefined {
    const v = this.state.get(key);
    return v === undefined ? undefined : String(v);
  }
}

export function str(v: ChainValue | undefined): string {
  if (Array.isArray(v)) return `[${v.map(str).join(', ')}]`;
  return String(v);
}
