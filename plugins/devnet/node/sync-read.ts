import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';

/**
 * A worker's synchronous read from the node's main thread (dry runs and block execution read
 * committed state mid-execution, and the VM cannot await): posts `msg` on `port`, blocks on
 * `flag` (the main thread notifies it after answering) and takes the answer with
 * receiveMessageOnPort. The 1 s wait only re-checks the port; it never gives up.
 */
export function requestSync(port: MessagePort, flag: Int32Array, msg: unknown): unknown {
  Atomics.store(flag, 0, 0);
  port.postMessage(msg);
  for (;;) {
    Atomics.wait(flag, 0, 0, 1000);
    const got = receiveMessageOnPort(port);
    if (got) return got.message;
  }
}
