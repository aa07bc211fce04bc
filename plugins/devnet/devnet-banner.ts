import { ChainDecimal } from 'chainhost/chain';
import { DEFAULT_MNEMONIC, deriveAccounts, type Devnet, type Listening } from './node/devnet.js';
import { decodeStateText } from './node/state-reader.js';

/**
 * The start banner, on stderr like every log: where the node listens and the dev accounts with
 * their balances. Private keys are never printed (they are secrets even on a devnet, and logs
 * get copied around); with the public test mnemonic the mnemonic itself is shown so the
 * accounts can be imported into a wallet, a custom one never is.
 */
export function printDevnetBanner(devnet: Devnet, urls: Listening | undefined, write: (text: string) => void = (t) => process.stderr.write(t)): void {
  const accounts = devnet.accounts();
  const lines = [
    '',
    `devnet: chain id ${devnet.chainId}, data in ${devnet.home}`,
    urls ? `  node RPC   ${urls.rpcUrl}   (WebSocket ${urls.websocketUrl})` : '  node RPC   in-process only',
  ];
  if (urls?.metricsUrl) lines.push(`  metrics    ${urls.metricsUrl}`);
  lines.push('', 'dev accounts (address, balance now rounded to 0.001 — the tools answer it exactly; 1,000,000 currency each at genesis):');
  for (const account of accounts) {
    lines.push(`  #${account.index}  ${account.address}  ${balanceOf(devnet, account.address)} currency`);
  }
  lines.push('');
  if (usesDefaultMnemonic(accounts[0]?.address)) {
    lines.push(
      `mnemonic: ${DEFAULT_MNEMONIC}`,
      '  the public test mnemonic: anyone can derive these accounts, never use them on a real network.',
      '  Import it in the official wallets (or create_hd_wallet_from_mnemonic); account #n is derivation index n.',
    );
  } else {
    lines.push('mnemonic: the one given with --mnemonic (not printed); account #n is its derivation index n in the official wallets.');
  }
  write(lines.join('\n') + '\n\n');
}

/** Whether the accounts come from the public test mnemonic (compared by the first address, as the mnemonic itself is not kept). */
function usesDefaultMnemonic(firstAddress: string | undefined): boolean {
  return firstAddress === deriveAccounts(DEFAULT_MNEMONIC, 1)[0]!.address;
}

function balanceOf(devnet: Devnet, address: string): string {
  const text = devnet.node.store.state.get(`currency.balances:${address}`);
  if (text === undefined) return '0';
  const value = decodeStateText(text);
  return value instanceof ChainDecimal || typeof value === 'number' || typeof value === 'bigint' ? forPeople(ChainDecimal.from(value)) : text;
}

/**
 * A balance as a person reads it: rounded half up to 3 decimal places, thousands grouped
 * (`998,835.016`, not `998835.015999999999999999999999999992`). Only the banner rounds.
 */
export function forPeople(value: ChainDecimal): string {
  const negative = value.cmp(0) < 0;
  const rounded = value.abs().plus('0.0005').truncate(3).toString();
  const [whole = '0', fraction] = rounded.split('.');
  return `${negative ? '-' : ''}${whole.replace(/\B(?=(\d{3})+$)/g, ',')}${fraction ? `.${fraction}` : ''}`;
}
