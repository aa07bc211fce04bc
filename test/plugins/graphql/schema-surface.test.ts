import { strict as assert } from 'node:assert';
import { getNamedType, GraphQLString, isEnumType, isInputObjectType, isObjectType, type GraphQLObjectType } from 'graphql';
import { BDS_TABLES } from '../../../plugins/graphql/catalog/bds-tables.js';
import { buildGraphqlSchema } from '../../../plugins/graphql/schema/build-schema.js';

/**
 * graphql.md §2–§4: the names and types PostGraphile (V4 preset, connection-filter,
 * pg-aggregates) generates for the v7 tables, checked on the schema itself.
 */
const schema = buildGraphqlSchema({ tables: BDS_TABLES, status: async () => { throw new Error('unused'); } });
const object = (name: string) => {
  const t = schema.getType(name);
  assert.ok(t && isObjectType(t), `type ${name} exists`);
  return t as GraphQLObjectType;
};
const fieldTypes = (name: string) => Object.fromEntries(Object.values(object(name).getFields()).map((f) => [f.name, String(f.type)]));

describe('GraphQL: schema names and shapes (graphql.md §2-§4)', function () {
  it('root fields: connections, unique lookups, node lookups, bdsStatus; no mutations', function () {
    const root = Object.keys(schema.getQueryType()!.getFields());
    for (const name of [
      'query', 'nodeId', 'node',
      'allBlocks', 'allTransactions', 'allAddresses', 'allStateChanges', 'allStates', 'allEvents', 'allRewards',
      'allShieldedOutputs', 'allShieldedOutputTags', 'allContracts', 'allStatePatchRecords', 'allBdsMetas',
      'blockByHeight', 'blockByBlockHash', 'transactionByHash', 'transactionByBlockHeightAndTxIndex', 'addressByAddress',
      'stateChangeByChangeId', 'stateChangeByBlockHeightAndTxIndexAndWriteIndex', 'stateByKey', 'eventById', 'eventByTxHashAndEventIndex',
      'rewardById', 'rewardByBlockHeightAndTxIndexAndRewardIndex', 'contractByName', 'statePatchRecordByHash', 'bdsMetaByKey',
      'shieldedOutputById', 'shieldedOutputByTxHashAndOutputIndex', 'shieldedOutputTagById', 'shieldedOutputTagByTxHashAndOutputIndexAndTagKindAndTagValue',
      'block', 'transaction', 'event', 'state', 'contract', 'bdsStatus',
    ]) assert.ok(root.includes(name), `Query.${name}`);
    assert.equal(schema.getMutationType(), undefined);
    assert.equal(schema.getSubscriptionType(), undefined);
    const lookup = schema.getQueryType()!.getFields().blockByHeight!;
    assert.deepStrictEqual(lookup.args.map((a) => [a.name, String(a.type)]), [['height', 'BigInt!']]);
    assert.equal(String(lookup.type), 'Block', 'a miss is null');
  });

  it('row types: camelCase columns with PostGraphile scalars and nullability', function () {
    assert.deepStrictEqual(
      Object.fromEntries(Object.entries(fieldTypes('Transaction')).filter(([k]) => !/By/.test(k))),
      {
        nodeId: 'ID!', hash: 'String!', blockHeight: 'BigInt!', blockHash: 'String!', blockTime: 'BigInt!', txIndex: 'Int!', sender: 'String!',
        nonce: 'BigInt!', contract: 'String!', function: 'String!', success: 'Boolean!', statusCode: 'Int!', chiUsed: 'BigInt!',
        result: 'JSON', payload: 'JSON!', envelope: 'JSON!', createdAt: 'Datetime!',
      },
    );
    assert.deepStrictEqual(Object.keys(fieldTypes('Block')).filter((k) => !/By/.test(k)), ['nodeId', 'height', 'blockHash', 'blockTime', 'blockTimeIso', 'txCount', 'appHash', 'createdAt']);
    assert.equal(fieldTypes('State').valueNumeric, 'BigFloat');
    assert.equal(fieldTypes('Reward').value, 'BigFloat!');
    assert.equal(fieldTypes('ShieldedOutputTag').tagKind, 'String!');
    assert.equal(fieldTypes('ShieldedOutput').noteIndex, 'Int');
    assert.equal(fieldTypes('Contract').xsc001, 'Boolean!');
    assert.deepStrictEqual(Object.keys(fieldTypes('BdsMeta')), ['nodeId', 'key', 'value', 'updatedAt']);
  });

  it('relations from foreign keys, named by inflection', function () {
    const tx = fieldTypes('Transaction');
    assert.equal(tx.blockByBlockHeight, 'Block');
    for (const [field, type] of [['eventsByTxHash', 'EventsConnection!'], ['stateChangesByTxHash', 'StateChangesConnection!'], ['rewardsByTxHash', 'RewardsConnection!'],
      ['shieldedOutputsByTxHash', 'ShieldedOutputsConnection!'], ['contractsByLastTxHash', 'ContractsConnection!'], ['addressesByLastTxHash', 'AddressesConnection!']]) {
      assert.equal(tx[field!], type, `Transaction.${field}`);
    }
    assert.equal(fieldTypes('Block').transactionsByBlockHeight, 'TransactionsConnection!');
    assert.equal(fieldTypes('Block').statePatchRecordsByBlockHeight, 'StatePatchRecordsConnection!');
    assert.equal(fieldTypes('Block').contractsBySubmittedAtBlock, 'ContractsConnection!');
    assert.equal(fieldTypes('Event').transactionByTxHash, 'Transaction');
    assert.equal(fieldTypes('Contract').blockBySubmittedAtBlock, 'Block');
    assert.equal(fieldTypes('Address').transactionByLastTxHash, 'Transaction');
  });

  it('connections: arguments, shape, PageInfo, edges', function () {
    const all = schema.getQueryType()!.getFields().allTransactions!;
    assert.deepStrictEqual(all.args.map((a) => [a.name, String(a.type)]), [
      ['first', 'Int'], ['last', 'Int'], ['offset', 'Int'], ['before', 'Cursor'], ['after', 'Cursor'],
      ['condition', 'TransactionCondition'], ['filter', 'TransactionFilter'], ['orderBy', '[TransactionsOrderBy!]'],
    ]);
    assert.deepStrictEqual(all.args.find((a) => a.name === 'orderBy')!.defaultValue, ['PRIMARY_KEY_ASC']);
    assert.equal(String(all.type), 'TransactionsConnection');
    assert.deepStrictEqual(fieldTypes('TransactionsConnection'), {
      nodes: '[Transaction]!', edges: '[TransactionsEdge]!', pageInfo: 'PageInfo!', totalCount: 'Int!',
      aggregates: 'TransactionAggregates', groupedAggregates: '[TransactionAggregates!]',
    });
    assert.deepStrictEqual(fieldTypes('TransactionsEdge'), { cursor: 'Cursor', node: 'Transaction' });
    assert.deepStrictEqual(fieldTypes('PageInfo'), { hasNextPage: 'Boolean!', hasPreviousPage: 'Boolean!', startCursor: 'Cursor', endCursor: 'Cursor' });
  });

  it('orderBy enums: NATURAL, <COLUMN>_ASC/_DESC, PRIMARY_KEY_ASC/_DESC', function () {
    const order = schema.getType('TransactionsOrderBy');
    assert.ok(order && isEnumType(order));
    const values = order.getValues().map((v) => v.name);
    for (const v of ['NATURAL', 'HASH_ASC', 'BLOCK_HEIGHT_DESC', 'CHI_USED_ASC', 'CREATED_AT_DESC', 'PRIMARY_KEY_ASC', 'PRIMARY_KEY_DESC']) assert.ok(values.includes(v), v);
    const enumValues = (name: string) => {
      const t = schema.getType(name);
      assert.ok(t && isEnumType(t), name);
      return t.getValues().map((v) => v.name);
    };
    assert.ok(enumValues('BlocksOrderBy').includes('HEIGHT_DESC'));
    assert.ok(enumValues('EventsOrderBy').includes('ID_ASC'));
  });

  it('condition and filter inputs with connection-filter operators per scalar', function () {
    const condition = schema.getType('EventCondition');
    assert.ok(condition && isInputObjectType(condition));
    assert.equal(String(condition.getFields().dataIndexed!.type), 'JSON');
    const filter = schema.getType('TransactionFilter');
    assert.ok(filter && isInputObjectType(filter));
    const ff = filter.getFields();
    assert.equal(String(ff.sender!.type), 'StringFilter');
    assert.equal(String(ff.blockHeight!.type), 'BigIntFilter');
    assert.equal(String(ff.payload!.type), 'JSONFilter');
    assert.equal(String(ff.and!.type), '[TransactionFilter!]');
    assert.equal(String(ff.not!.type), 'TransactionFilter');
    const ops = (name: string) => Object.keys((schema.getType(name) as { getFields(): Record<string, unknown> }).getFields());
    for (const op of ['isNull', 'equalTo', 'notEqualTo', 'distinctFrom', 'notDistinctFrom', 'in', 'notIn', 'lessThan', 'lessThanOrEqualTo', 'greaterThan', 'greaterThanOrEqualTo',
      'includes', 'notIncludes', 'includesInsensitive', 'startsWith', 'startsWithInsensitive', 'endsWith', 'endsWithInsensitive', 'like', 'likeInsensitive',
      'equalToInsensitive', 'inInsensitive']) assert.ok(ops('StringFilter').includes(op), `StringFilter.${op}`);
    assert.deepStrictEqual(ops('BigIntFilter'), ['isNull', 'equalTo', 'notEqualTo', 'distinctFrom', 'notDistinctFrom', 'in', 'notIn', 'lessThan', 'lessThanOrEqualTo', 'greaterThan', 'greaterThanOrEqualTo']);
    for (const op of ['contains', 'containedBy', 'containsKey', 'containsAllKeys', 'containsAnyKeys']) assert.ok(ops('JSONFilter').includes(op), `JSONFilter.${op}`);
    const inType = (schema.getType('BigIntFilter') as { getFields(): Record<string, { type: unknown }> }).getFields().in!.type;
    assert.equal(String(inType), '[BigInt!]');
  });

  it('aggregates (pg-aggregates): kinds per column type, sum non-null, groupBy enum', function () {
    assert.deepStrictEqual(Object.keys(fieldTypes('RewardAggregates')), ['keys', 'sum', 'distinctCount', 'min', 'max', 'average', 'stddevSample', 'stddevPopulation', 'varianceSample', 'variancePopulation']);
    assert.deepStrictEqual(fieldTypes('RewardSumAggregates'), { id: 'BigFloat!', blockHeight: 'BigFloat!', txIndex: 'BigInt!', rewardIndex: 'BigInt!', value: 'BigFloat!' });
    assert.equal(fieldTypes('RewardMinAggregates').txIndex, 'Int');
    assert.equal(fieldTypes('RewardAverageAggregates').value, 'BigFloat');
    assert.equal(fieldTypes('RewardDistinctCountAggregates').type, 'BigInt');
    const groupBy = schema.getType('TransactionGroupBy');
    assert.ok(groupBy && isEnumType(groupBy));
    const values = groupBy.getValues().map((v) => v.name);
    for (const v of ['SENDER', 'CONTRACT', 'CREATED_AT', 'CREATED_AT_TRUNCATED_TO_HOUR', 'CREATED_AT_TRUNCATED_TO_DAY']) assert.ok(values.includes(v), v);
    assert.equal(String(object('TransactionsConnection').getFields().groupedAggregates!.args[0]!.type), '[TransactionGroupBy!]!');
  });

  it('scalars: BigInt, BigFloat, Datetime, JSON, Cursor; every table type is a Node', function () {
    for (const s of ['BigInt', 'BigFloat', 'Datetime', 'JSON', 'Cursor']) assert.ok(schema.getType(s), s);
    for (const t of BDS_TABLES) assert.deepStrictEqual(object(t.typeName).getInterfaces().map((i) => i.name), ['Node']);
    assert.equal(getNamedType(schema.getQueryType()!.getFields().bdsStatus!.type).name, 'BdsStatus');
  });

  it('refuses a contribution that clashes with a BDS table or with itself, naming it', function () {
    const status = async () => { throw new Error('unused'); };
    assert.throws(() => buildGraphqlSchema({ tables: [...BDS_TABLES, { ...BDS_TABLES[0]!, name: 'blocks_copy' }], status }), /GraphQL table blocks_copy: Block is already used by another table/);
    assert.throws(
      () => buildGraphqlSchema({ tables: [...BDS_TABLES, { name: 'x_rows', typeName: 'XRow', pluralTypeName: 'XRows', columns: [{ name: 'id', type: 'bigint' }], primaryKey: ['id', 'nope'] }], status }),
      /GraphQL table "x_rows": the primary key names unknown column nope/,
    );
    assert.throws(
      () => buildGraphqlSchema({
        tables: [...BDS_TABLES, { name: 'x_rows', typeName: 'XRow', pluralTypeName: 'XRows', columns: [{ name: 'id', type: 'bigint' }, { name: 'block_by_height', type: 'text' }, { name: 'height', type: 'bigint' }], primaryKey: ['id'], foreignKeys: [{ columns: ['height'], references: { table: 'blocks', columns: ['height'] } }] }],
        status,
      }),
      /GraphQL type XRow: field blockByHeight would be defined twice/,
    );
    assert.throws(
      () => buildGraphqlSchema({ tables: BDS_TABLES, status, fields: [{ name: 'dup', fields: () => ({ allBlocks: { type: GraphQLString } }) }] }),
      /GraphQL contribution dup: root field allBlocks already exists/,
    );
  });
});
