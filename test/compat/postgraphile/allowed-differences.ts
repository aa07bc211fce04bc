/**
 * Differences between chainhost's GraphQL server and the real PostGraphile 5 (upstream's preset)
 * that we keep on purpose, each with its reason. `id` is matched against a difference's id
 * (`schema/<kind>/<name>` or `query/<corpus name>`): a string must be equal, a RegExp must match.
 * Only extras that upstream lacks and that cannot collide with an upstream name belong here; an
 * entry that no longer matches any difference fails the test, so the list stays true.
 */
export interface AllowedDifference {
  id: string | RegExp;
  reason: string;
}

export const ALLOWED_DIFFERENCES: AllowedDifference[] = [
  {
    id: /^schema\/(type\/BdsStatus|field\/Query\.bdsStatus)$/,
    reason: 'chainhost extra: `bdsStatus` reports the indexed height and the BDS worker state (README "GraphQL"); upstream has no such field and no type of that name.',
  },
];
