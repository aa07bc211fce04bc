import { VmError } from './errors.js';
import { meteringLength, utf8Length } from './metering-json.js';
import type { VmValue } from './values.js';

/**
 * Raw-gas meter of one transaction (xian-vm-core metering.rs `VmMeter`, schedule `xvm-gas-1`):
 * 1 chi = 1,000 raw; every charge is checked against the budget right away (`Out of chi.`);
 * writes are also capped at 128 KiB per transaction; per-contract attribution for rewards.
 */
export const READ_COST_PER_BYTE = 2;
export const WRITE_COST_PER_BYTE = 25;
export const TRANSACTION_BYTES_COST_PER_BYTE = 1;
export const RETURN_VALUE_COST_PER_BYTE = 1;
export const TRANSACTION_BASE_CHI = 5;
export const MAX_RAW_CHI = 50_000_000_000;
export const WRITE_MAX_BYTES = 1024 * 128;
export const CROSS_CONTRACT_CALL_BASE = 10_000;
export const OUT_OF_CHI = 'Out of chi.';
export const WRITE_CAP_ERROR = 'You have exceeded the maximum write capacity per transaction!';

export interface MeterConfig {
  /** false: nothing is charged (upstream's default `VmMeterConfig`). */
  enabled: boolean;
  /** Raw budget (chi × 1000); 0 = unlimited. */
  chiBudgetRaw: number;
  /** Size of the signed transaction, charged once at entry. */
  transactionSizeBytes: number;
}

interface Frame {
  contract: string;
  startCost: number;
  childCost: number;
}

export interface ExecutionStats {
  rawCost: number;
  chiUsed: number;
  contractCosts: Map<string, number>;
}

export class Meter {
  readonly enabled: boolean;
  readonly chiBudgetRaw: number;
  readonly transactionSizeBytes: number;
  rawCost = 0;
  writtenBytes = 0;
  private frames: Frame[] = [];
  private markers: boolean[] = [];
  private costs = new Map<string, number>();

  constructor(config: Partial<MeterConfig> = {}) {
    this.enabled = config.enabled ?? false;
    this.chiBudgetRaw = config.chiBudgetRaw ?? 0;
    this.transactionSizeBytes = config.transactionSizeBytes ?? 0;
  }

  charge(cost: number): void {
    if (!this.enabled || cost === 0) return;
    this.rawCost += cost;
    if (this.chiBudgetRaw > 0 && this.rawCost > this.chiBudgetRaw) throw new VmError(OUT_OF_CHI);
  }

  chargeTransactionBytes(): void {
    if (this.enabled && this.transactionSizeBytes) this.charge(this.transactionSizeBytes * TRANSACTION_BYTES_COST_PER_BYTE);
  }

  chargeRead(key: string, value: VmValue): void {
    if (!this.enabled) return;
    this.charge((utf8Length(key) + meteringLength(value)) * READ_COST_PER_BYTE);
  }

  chargeWrite(key: string, value: VmValue): void {
    if (!this.enabled) return;
    const written = utf8Length(key) + meteringLength(value);
    this.writtenBytes += written;
    if (this.writtenBytes >= WRITE_MAX_BYTES) throw new VmError(WRITE_CAP_ERROR);
    this.charge(written * WRITE_COST_PER_BYTE);
  }

  chargeReturnValue(value: VmValue): void {
    if (!this.enabled) return;
    this.charge(meteringLength(value) * RETURN_VALUE_COST_PER_BYTE);
  }

  beginContract(contract: string): void {
    if (!this.enabled) return;
    this.frames = [{ contract, startCost: this.rawCost, childCost: 0 }];
    this.markers = [];
    this.costs.clear();
  }

  enterContract(contract: string): void {
    if (!this.enabled) return;
    const top = this.frames[this.frames.length - 1];
    const pushed = !top || top.contract !== contract;
    if (pushed) this.frames.push({ contract, startCost: this.rawCost, childCost: 0 });
    this.markers.push(pushed);
  }

  exitContract(): void {
    if (!this.enabled) return;
    if (this.markers.pop()) this.finalizeFrame();
  }

  private finalizeFrame(): void {
    const frame = this.frames.pop();
    if (!frame) return;
    const total = Math.max(0, this.rawCost - frame.startCost - frame.childCost);
    this.costs.set(frame.contract, (this.costs.get(frame.contract) ?? 0) + total);
    const parent = this.frames[this.frames.length - 1];
    if (parent) parent.childCost += total;
  }

  /** Closes the attribution frames; the fixed 5-chi overhead goes to the entry contract. */
  finalizeContracts(entryContract?: string): Map<string, number> {
    while (this.frames.length) this.finalizeFrame();
    if (entryContract !== undefined && this.enabled) {
      this.costs.set(entryContract, (this.costs.get(entryContract) ?? 0) + TRANSACTION_BASE_CHI * 1000);
    }
    const result = new Map(this.costs);
    this.markers = [];
    this.costs.clear();
    return result;
  }

  /** `chi_used = raw // 1000 + 5`, capped at the budget (also when raw passes 50e9). */
  stats(contractCosts = new Map<string, number>()): ExecutionStats {
    let chiUsed = Math.floor(this.rawCost / 1000) + TRANSACTION_BASE_CHI;
    if (this.chiBudgetRaw > 0) {
      const budget = Math.floor(this.chiBudgetRaw / 1000);
      if (this.rawCost > MAX_RAW_CHI || chiUsed > budget) chiUsed = budget;
    }
    return { rawCost: this.rawCost, chiUsed, contractCosts };
  }
}
