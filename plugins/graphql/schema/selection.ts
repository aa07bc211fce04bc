import { Kind, type FieldNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';

/**
 * The fields selected directly under a selection set, with fragments (named and inline)
 * expanded. Type conditions are not checked: a field that may be asked for is counted, which
 * errs on the side of computing (aggregates) or charging (cost) a little more.
 */
export function selectedFields(
  selectionSets: ReadonlyArray<SelectionSetNode | undefined>,
  fragments: Readonly<Record<string, FragmentDefinitionNode>>,
): FieldNode[] {
  const out: FieldNode[] = [];
  const seenFragments = new Set<string>();
  const visit = (set: SelectionSetNode | undefined) => {
    if (!set) return;
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) out.push(s);
      else if (s.kind === Kind.INLINE_FRAGMENT) visit(s.selectionSet);
      else if (!seenFragments.has(s.name.value)) {
        seenFragments.add(s.name.value);
        visit(fragments[s.name.value]?.selectionSet);
      }
    }
  };
  for (const set of selectionSets) visit(set);
  return out;
}
