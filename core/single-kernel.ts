/**
 * Imported for its effect by the modules every kernel copy evaluates (errors, tokens): the
 * kernel must be one copy per process. Our plugins import it as `chainhost/plugin`, which
 * resolves to the built dist/ unless the process runs with `--conditions=chainhost-source`; a
 * source host with dist plugins would hold two kernels that share no module state, and fail
 * later in ways that do not point here. Say so at once. (A third party's own nested copy of
 * another chainhost install is a different tree and is left alone.)
 */
const KERNEL_COPY = Symbol.for('chainhost.kernel-copy');
const kernelCopies = globalThis as { [KERNEL_COPY]?: string };
const thisCopy = import.meta.url;
const firstCopy = (kernelCopies[KERNEL_COPY] ??= thisCopy);
if (firstCopy !== thisCopy && sameTree(firstCopy, thisCopy)) {
  throw new Error(`chainhost's kernel is loaded twice, from ${firstCopy} and ${thisCopy}: run from source with node --conditions=chainhost-source (tsx and mocha as the npm scripts do), or run the built dist/ alone`);
}

function sameTree(a: string, b: string): boolean {
  const tree = (url: string) => url.replace(/\/dist\/(core|host|plugins)\//, '/$1/').replace(/\.(ts|js)$/, '');
  return tree(a) === tree(b);
}
