/**
 * A failure raised inside contract execution. `pythonClass` is the exception class the real VM
 * would report (`AssertionError` for `assert cond, "msg"`), so the node can render the on-chain
 * `result` repr (`AssertionError('Not enough coins to send.')`). Any ContractError aborts the
 * transaction: status 1, writes and events dropped, the fee still charged.
 */
export class ContractError extends Error {
  readonly pythonClass: string;

  constructor(pythonClass: string, message: string) {
    super(message);
    this.name = 'ContractError';
    this.pythonClass = pythonClass;
  }
}
