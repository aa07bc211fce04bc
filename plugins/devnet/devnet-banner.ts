import type { Devnet, Listening } from './node/devnet.js';

/**
 * The start banner, on stderr like every log: where the node listens and the dev accounts with
 * their keys (well-known keys of a public test mnemonic, printed on purpose, like Hardhat).
 */
export function printDevnetBanner(devnet: Devnet, urls: Listening | undefined, write: (text: string) => void = (t) => process.stderr.write(t)): void {
  const lines = [
    '',
    `devnet: chain id ${devnet.chainId}, data in ${devnet.home}`,
    urls ? `  node RPC   ${urls.rpcUrl}   (WebSocket ${urls.websocketUrl})` : '  node RPC   in-process only',
  ];
  if (urls?.metricsUrl) lines.push(`  metrics    ${urls.metricsUrl}`);
  lines.push('', 'dev accounts (each funded with 1,000,000 currency; test keys, never use them on a real network):');
  for (const account of devnet.accounts()) {
    lines.push(`  #${account.index}  address ${account.address}`);
    lines.push(`       private key ${account.privateKey}`);
  }
  write(lines.join('\n') + '\n\n');
}
