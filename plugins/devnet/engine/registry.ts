import type { NativeContract } from './contract.js';
import type { StateReader } from './types.js';

/**
 * The devnet's code catalog. As on the real chain, a contract's code lives in state: the
 * executor reads `<name>.__source__` and runs the native implementation registered for exactly
 * that source text. So deployed instances (any number of XSC001 test tokens, one LP token per
 * pair) share one template, survive restarts with the node's state, and a governed state patch
 * of `__source__` to a text the registry does not know makes the contract unexecutable (the
 * devnet cannot run arbitrary Python).
 */
export class ContractRegistry {
  private readonly byId = new Map<string, NativeContract>();
  private readonly bySource = new Map<string, NativeContract>();
  // The last source string seen per contract name: state values are usually the same string
  // object on every read, so the hot path is one Map lookup and one identity compare.
  private readonly resolved = new Map<string, { source: string; contract: NativeContract }>();

  register(contract: NativeContract): this {
    if (this.byId.has(contract.id)) throw new Error(`a contract template with id ${contract.id} is already registered`);
    const other = this.bySource.get(contract.source);
    if (other) throw new Error(`contract templates ${other.id} and ${contract.id} have the same source text`);
    this.byId.set(contract.id, contract);
    this.bySource.set(contract.source, contract);
    return this;
  }

  get(id: string): NativeContract | undefined {
    return this.byId.get(id);
  }

  /** The template by id; throws naming the known ids when missing. */
  require(id: string): NativeContract {
    const c = this.byId.get(id);
    if (!c) throw new Error(`no contract template ${id}; registered: ${[...this.byId.keys()].join(', ')}`);
    return c;
  }

  /** The template whose canonical source is exactly `source`. */
  forSource(source: string): NativeContract | undefined {
    return this.bySource.get(source);
  }

  /** The code deployed under `name` in `state`, or undefined when there is none (or it is not native). */
  resolve(name: string, state: StateReader): NativeContract | undefined {
    const source = state.get(`${name}.__source__`);
    if (typeof source !== 'string') return undefined;
    const cached = this.resolved.get(name);
    if (cached !== undefined && cached.source === source) return cached.contract;
    const contract = this.bySource.get(source);
    if (contract !== undefined) this.resolved.set(name, { source, contract });
    return contract;
  }

  all(): NativeContract[] {
    return [...this.byId.values()];
  }
}
