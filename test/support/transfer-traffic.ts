import type { ChainNode } from '../../core/chain/node.js';
import { encodeTransaction, signTransaction } from '../../core/chain/transaction.js';
import type { SeededRandom } from './seeded-random.js';

/**
 * A traffic generator for crash tests: each sender submits signed `currency.transfer`s over
 * the node RPC (`broadcast_tx_sync`) in its own loop, with seeded random pauses. The node can
 * vanish (kill -9) and come back on another URL: `detach()` parks the senders, `attach()`
 * points them at the new node, and each re-reads its next nonce there (a crash drops the
 * mempool, so the nonces of lost transactions are free again).
 */
export interface Sender {
  address: string;
  privateKey: string;
}

export interface AcceptedTx {
  hash: string;
  sender: string;
  nonce: number;
  /** Which node run accepted it (0 = the first start). */
  run: number;
}

export interface TrafficOptions {
  senders: Sender[];
  recipient: string;
  chainId: string;
  random: SeededRandom;
  /** Pause between two transactions of one sender, ms. */
  pauseMs: [number, number];
}

export class TransferTraffic {
  /** Transactions the node accepted into its mempool (CheckTx code 0), by upper-case hash. */
  readonly accepted = new Map<string, AcceptedTx>();
  /** Submissions refused or failed in transport (expected around a kill). */
  failures = 0;
  private node: ChainNode | null = null;
  private run = -1;
  private stopped = false;
  private loops: Promise<void>[] = [];

  constructor(private readonly options: TrafficOptions) {}

  attach(node: ChainNode): void {
    this.node = node;
    this.run++;
  }

  detach(): void {
    this.node = null;
  }

  start(): void {
    this.loops = this.options.senders.map((s) => this.loop(s));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.loops);
  }

  private async loop(sender: Sender): Promise<void> {
    let nonce: number | null = null;
    let run = -1;
    while (!this.stopped) {
      const node = this.node;
      const nodeRun = this.run;
      if (!node) {
        await sleep(25);
        continue;
      }
      try {
        if (nonce === null || run !== nodeRun) {
          run = nodeRun;
          nonce = Number((await node.query(`/get_next_nonce/${sender.address}`)).value?.text ?? '0');
        }
        const signed = signTransaction({
          chain_id: this.options.chainId, chi_supplied: 1000, contract: 'currency', function: 'transfer',
          kwargs: { amount: 1, to: this.options.recipient }, nonce, sender: sender.address,
        }, sender.privateKey);
        const result = await node.broadcastTxSync(encodeTransaction(signed).hex);
        if (result.code === 0) {
          this.accepted.set(result.hash.toUpperCase(), { hash: result.hash.toUpperCase(), sender: sender.address, nonce, run });
          nonce++;
        } else {
          this.failures++;
          nonce = null;
        }
      } catch {
        // The node is gone (killed) or restarting: read the nonce again once it is back.
        this.failures++;
        nonce = null;
        await sleep(50);
      }
      const [min, max] = this.options.pauseMs;
      await sleep(this.options.random.int(min, max));
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
