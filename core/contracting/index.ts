export * from './compiler/index.js';
export * from './vm/index.js';
