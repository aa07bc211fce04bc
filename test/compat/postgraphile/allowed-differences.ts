import { equalButMaskedMessages } from './support/answer-diff.js';

/**
 * Differences between chainhost's GraphQL server and the real PostGraphile 5 (upstream's preset)
 * that we keep on purpose, each with its reason. `id` is matched against a difference's id
 * (`schema/<kind>/<name>` or `query/<corpus name>`): a string must be equal, a RegExp must match.
 * `when`, if given, must also hold for the two (normalised) answers of a query: an entry then
 * allows that kind of difference only, not whatever else the same query might get wrong.
 * Only extras that upstream lacks and that cannot collide with an upstream name belong here; an
 * entry that no longer matches any difference fails the test, so the list stays true.
 */
export interface AllowedDifference {
  id: string | RegExp;
  when?: (answers: { reference: unknown; ours: unknown }) => boolean;
  reason: string;
}

/** Query's fields in PostGraphile's answer equal ours once our extra `bdsStatus` is left out. */
function sameQueryFieldsButBdsStatus({ reference, ours }: { reference: unknown; ours: unknown }): boolean {
  const copy = JSON.parse(JSON.stringify(ours)) as { body?: { data?: { query?: { fields?: Array<{ name: string }> } } } };
  const fields = copy.body?.data?.query?.fields;
  if (!fields?.some((f) => f.name === 'bdsStatus')) return false;
  copy.body!.data!.query!.fields = fields.filter((f) => f.name !== 'bdsStatus');
  return JSON.stringify(copy) === JSON.stringify(reference);
}

export const ALLOWED_DIFFERENCES: AllowedDifference[] = [
  {
    id: /^schema\/(type\/BdsStatus|field\/Query\.bdsStatus)$/,
    reason: 'chainhost extra: `bdsStatus` reports the indexed height and the BDS worker state (README "GraphQL"); upstream has no such field and no type of that name.',
  },
  {
    id: 'query/doc/type-field-order',
    when: sameQueryFieldsButBdsStatus,
    reason: 'the `bdsStatus` extra above, listed last among Query\'s fields; every other field and argument comes in PostGraphile\'s order.',
  },
  {
    id: /^schema\/(type\/JSONFilter|input\/(EventFilter\.(data|dataIndexed)|StateChangeFilter\.newValue|StateFilter\.value|StatePatchRecordFilter\.patches|TransactionFilter\.(envelope|payload|result)))$/,
    reason: 'chainhost extra (plugins/graphql/README.md "Where this differs"): filter fields on JSON columns with containment and key operators (upstream has no JSON filters); no upstream name can collide with them.',
  },
  {
    id: 'query/error/json-filter-not-defined',
    reason: 'the JSON filter extra above: `EventFilter.dataIndexed` exists here, so the query PostGraphile refuses as an unknown field is refused here for its operand (JSON text).',
  },
  {
    id: /^query\/error\//,
    when: ({ reference, ours }) => equalButMaskedMessages(reference, ours),
    reason: 'chainhost extra (plugins/graphql/README.md "Where this differs"): where PostGraphile masks an error\'s message ("An error occurred (logged with hash: …, id: …)") ours says what is wrong and names the argument (`first` must be a non-negative integer, got -1); status, data, path, locations and extensions (with an error id) are PostGraphile\'s.',
  },
];
