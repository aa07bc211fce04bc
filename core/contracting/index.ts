export * from './compiler/index.js';
export * from './vm/index.js';
/** The VM's text for a JS engine limit (stack, allocation): hosts use it for limits hit outside the VM's own catch. */
export { engineLimitMessage } from './vm/errors.js';
