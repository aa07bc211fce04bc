/**
 * `chainhost/plugin` — the published plugin API (package.json `exports`). Everything a plugin,
 * ours or a third party's, needs to define itself and contribute: the plugin contract (with its
 * config and environment bindings), tools, routes and the servers they run on (JSON bodies,
 * Host-header rules), query paths, extension points (the BDS indexer and GraphQL points
 * included), capabilities, errors, data-directory locks, logging, metrics and service tokens. Anything not exported here or from
 * `chainhost/chain` is internal and may change.
 *
 * `z` and `Router` are the host's own copies of zod and @koa/router: a plugin that builds its
 * schemas and routers with them needs neither installed, and the host reads them as it reads
 * its own.
 */
export { z } from 'zod';
export { default as Router } from '@koa/router';

// The plugin contract and its lifecycle.
export { definePlugin, type AnyPlugin, type PluginContext, type PluginDefinition } from '../../core/plugin.js';
export type { HostSettings } from '../../core/config/host-settings.js';
export type { EnvBinding } from '../../core/config/environment.js';

// Extension points and the contributions they collect.
export { createExtensionPoint, type Contributor, type ExtensionPoint, type ExtensionPointFactory } from '../../core/extension-point.js';
export type { AdmissionPolicy, Contributed, ContributionList } from '../../core/contribution-list.js';

// Capabilities: every contribution declares one; the policy is applied once, at freeze.
export { CAPABILITIES, isCapability, type Capability, type CapabilityPolicy } from '../../core/capability.js';

// Errors, recognised by brand or by a duck-typed HTTP status (`status`/`statusCode` + `code`).
export { ApiError, BootError, asApiError, toApiError, type ApiErrorBody, type ApiErrorCode, type BootErrorCode } from '../../core/errors.js';

// Logging (stderr; secret-looking fields redacted) and metrics.
export { createLogger, silentLogger, type Logger, type LogLevel } from '../../core/logger.js';
export type { CounterDefinition, CounterHandle, GaugeCollector, GaugeSample, GaugeValue, MetricsRegistrar } from '../../core/metrics.js';

// Services: typed tokens and those the host provides.
export { createToken, type Token } from '../../core/tokens.js';
export { CoreTokens } from '../../core/core-tokens.js';

// Tools: definitions, the call context, and the shared input and output schemas.
export { annotationsOf, defineTool, type AskUser, type ConfirmOutcome, type ConfirmRequest, type ToolAnnotations, type ToolCallContext, type ToolDefinition, type ToolHints, type ToolInput, type ToolOutput, type ToolTransport } from '../../core/tools/tool.js';
export type { ToolInvoker } from '../../core/tools/tool-invoker.js';
export * from '../../core/tools/chain-schemas.js';
// Signers: `account` (a keystore account the host unlocked) or `private_key`, exactly one; the same fields, refusals and messages in every plugin.
export { accountArgumentOf, signerArgumentsOf, SignerArguments, usesKeystore, type AccountArgument, type KeyArgumentSetting, type Signer, type SignerShape } from '../../core/tools/signer-arguments.js';
export type { HostAccount, HostAccounts } from '../../core/keystore/host-accounts.js';
/** The keystore's listing (alias → address, no passphrase needed) and its alias rule: for plugins that bind settings to accounts, as the wallet's spending policies. */
export { Keystore, type KeystoreOptions } from '../../core/keystore/keystore.js';
export { ALIAS_PATTERN, type KeystoreEntry } from '../../core/keystore/keystore-file.js';
export { decimalOut, intOut, intValue, rawOut, toolJson, warningsOut, withExtras } from '../../core/tools/tool-output.js';

// Routes, WebSockets and the servers they are mounted on.
export type { AnsweredRequest, DirectHandler, OwnListener, RouteContribution, ServerDeclaration, UpgradeRefusal, WebSocketContribution } from '../../core/routes.js';
// What a server of its own needs: bounded JSON bodies, the loopback and Host-header rules.
export * from '../../core/http/json-body.js';
export { ClientInFlight, clientKey, DEFAULT_HTTP_SERVER_LIMITS, httpServerOptions, refuseOverClientCap, type HttpServerLimits } from '../../core/http/server-limits.js';
export { hostForUrl, isLoopbackHost, urlFor } from '../../core/net/bind-address.js';
export * from '../../core/net/host-header.js';
// The one credential redaction: every URL or config value a plugin prints, logs, answers or exports goes through it.
export { redactUrl, redactUrlsIn } from '../../core/net/redact-url.js';

// ABCI-style query paths.
export { parseQueryPath, QueryPathError, type ParsedQueryPath, type QueryAnswer, type QueryPathContext, type QueryPathDefinition } from '../../core/query/query-path.js';
export type { QueryPathRegistry } from '../../core/query/query-path-registry.js';
export { databaseReason } from '../../core/query/database-reason.js';

// A data directory only one process may open (PGlite, a node's chain data).
export * from '../../core/fs/directory-lock.js';
export { startModuleWorker } from '../../core/threads/module-worker.js';

// The BDS indexer extension point: projections run per finalized block inside its write transaction.
export { bdsIndexers } from '../../plugins/bds/indexer-point.js';
export type {
  BdsIndexer, BdsIndexerRegistrar, IndexedBlock, IndexedEvent, IndexedEventInput, IndexedReward, IndexedStateChange, IndexedTransaction, OriginType,
} from '../../plugins/bds/indexer-point.js';
export type { BdsMigration } from '../../plugins/bds/database/migrations.js';
export { BdsTokens, type BdsDatabaseHandle } from '../../plugins/bds/bds-tokens.js';

// The GraphQL extension point: read-only tables and root query fields.
export { graphqlContributions } from '../../plugins/graphql/graphql-contributions.js';
export type { GraphqlContribution, GraphqlQueryFields, GraphqlRegistrar, GraphqlSchemaBuild } from '../../plugins/graphql/graphql-contributions.js';
