import path from 'node:path';
import { ChainNode, simulationRefusalCounter } from 'chainhost/chain';
import { BootError, CoreTokens, createToken, definePlugin, isLoopbackHost, type PluginContext } from 'chainhost/plugin';
import { devnetConfig, devnetEnvBindings } from './devnet.config.js';
import { DeferredChainRpc } from './deferred-chain-rpc.js';
import { Devnet } from './node/devnet.js';
import { NODE_REFUSALS } from './node/simulator.js';
import { printDevnetBanner } from './devnet-banner.js';

/**
 * The embedded local node. While loaded it is every plugin's node (CoreTokens.chainNode),
 * in-process; with `listen` it also serves CometBFT's RPC on `port` and metrics on
 * `metricsPort` for other processes.
 */
export const devnetPlugin = definePlugin({
  name: 'devnet',
  description: 'Embedded local node: CometBFT-shaped RPC, ABCI query paths and the canonical contracts, persisted under <home>/devnet.',
  config: devnetConfig,
  env: devnetEnvBindings,

  register(ctx) {
    const o = ctx.options;
    if (o.listen && !o.publicRpc && !isLoopbackHost(o.host)) {
      throw new BootError('unsafe_bind', `devnet host ${o.host} is not loopback; the node RPC is only served beyond loopback with plugins.devnet.publicRpc = true`);
    }
    if (o.listen) {
      ctx.servers.declareOwn({ name: 'node RPC', host: o.host, port: o.port, paths: '/status  /abci_query  /websocket' });
      if (o.metricsPort !== null) ctx.servers.declareOwn({ name: 'node metrics', host: o.host, port: o.metricsPort, paths: '/metrics' });
    }
    const opening = Devnet.open({
      home: o.home ? path.resolve(ctx.settings.home, o.home) : path.join(ctx.settings.home, 'devnet'),
      chainId: ctx.settings.chainId,
      blockTimeMs: o.blockTimeMs,
      accounts: o.accounts,
      mnemonic: o.mnemonic,
      reset: o.reset,
      queryResolver: (p) => ctx.queryPaths.registry.resolve(p),
      logger: ctx.log,
    });
    opening.catch(() => undefined);
    // Released when the host stops, started or not: Host.create then stop() must free the devnet's home for the next boot.
    ctx.onStop(async () => (await opening.catch(() => undefined))?.close());
    ctx.bind(DevnetOpening, opening);
    ctx.provide(CoreTokens.chainNode, new ChainNode(new DeferredChainRpc(opening.then((d) => d.rpc))));
  },

  async init(ctx) {
    const devnet = await devnetOf(ctx);
    devnet.node.simulator.onRefusal = simulationRefusalCounter(ctx.resolve(CoreTokens.metrics), 'node', NODE_REFUSALS);
  },

  async start(ctx) {
    const devnet = await devnetOf(ctx);
    const o = ctx.options;
    const urls = o.listen ? await devnet.listen({ host: o.host, port: o.port, metricsPort: o.metricsPort, allowedOrigins: o.allowedOrigins }) : undefined;
    if (o.printAccounts) printDevnetBanner(devnet, urls);
  },
});

/** This plugin instance's devnet, in its own child container (two hosts in one process each get theirs). */
const DevnetOpening = createToken<Promise<Devnet>>('devnet.opening');

async function devnetOf(ctx: PluginContext<unknown>): Promise<Devnet> {
  try {
    return await ctx.resolve(DevnetOpening);
  } catch (err) {
    throw new BootError('plugin_failed', `devnet cannot open: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}
