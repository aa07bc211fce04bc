import { GraphQLBoolean, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLString, type GraphQLScalarType } from 'graphql';
import { GraphQLBigInt, GraphQLDatetime } from './scalars.js';

/**
 * `bdsStatus`: how far the index has got. GraphQL reads BDS, which persists finalized blocks
 * asynchronously in height order, so a transaction can be final before its rows are visible
 * here (spec §1, read consistency rule 3). Clients that must see their own write wait until
 * `indexedHeight` reaches the transaction's block.
 */
export interface BdsStatusView {
  indexedHeight: string | number | bigint | null;
  indexedBlockHash: string | null;
  indexedBlockTime: string | null;
  schemaVersion: string | null;
  /** Known only when the BDS worker runs in this process. */
  workerRunning: boolean | null;
  currentBlockHeight: string | number | bigint | null;
  heightLag: string | number | bigint | null;
  /** Known only when the BDS worker runs in this process with a read copy. */
  readReplicaLag: string | number | bigint | null;
  catchingUp: boolean | null;
  alerts: unknown[] | null;
}

const statusTypes = new WeakMap<GraphQLScalarType, GraphQLObjectType<BdsStatusView>>();

/** The `BdsStatus` type of a schema with the given JSON scalar. */
export function bdsStatusType(json: GraphQLScalarType): GraphQLObjectType<BdsStatusView> {
  let type = statusTypes.get(json);
  if (!type) statusTypes.set(json, (type = statusType(json)));
  return type;
}

const statusType = (json: GraphQLScalarType) => new GraphQLObjectType<BdsStatusView>({
  name: 'BdsStatus',
  description:
    'Progress of the BDS index this API reads. GraphQL is eventually consistent: a finalized transaction appears once `indexedHeight` reaches its block. ' +
    'For read-after-write, poll until `indexedHeight` ≥ the transaction’s height (or poll `transactionByHash`). Use ABCI `/get/...` for authoritative current state.',
  fields: {
    indexedHeight: { type: GraphQLBigInt, description: 'Highest contiguous indexed block height; null before the first block is indexed.' },
    indexedBlockHash: { type: GraphQLString, description: 'Hash of the block at `indexedHeight`.' },
    indexedBlockTime: { type: GraphQLDatetime, description: 'Time of the block at `indexedHeight`.' },
    schemaVersion: { type: GraphQLString, description: 'BDS schema version (`7`).' },
    consistency: {
      type: new GraphQLNonNull(GraphQLString),
      description: 'Always `eventual`: rows appear after their block is persisted by the BDS worker.',
      resolve: () => 'eventual',
    },
    workerRunning: { type: GraphQLBoolean, description: 'Whether the BDS worker is running; null when it runs in another process.' },
    currentBlockHeight: { type: GraphQLBigInt, description: 'Node height observed by the BDS worker; null when unknown here.' },
    heightLag: { type: GraphQLBigInt, description: '`currentBlockHeight` minus `indexedHeight` (never negative); null when unknown.' },
    readReplicaLag: {
      type: GraphQLBigInt,
      description: 'Blocks the database this API reads (a read replica, CHAIN_BDS_READ_DATABASE_URL) is behind the BDS writer; null without a replica or when the writer runs in another process.',
    },
    catchingUp: { type: GraphQLBoolean, description: 'Whether blocks are waiting to be indexed; null when unknown.' },
    alerts: { type: new GraphQLList(new GraphQLNonNull(json)), description: 'Operator warnings and errors of the BDS worker (`{level, code, message}`); null when unknown.' },
  },
});
