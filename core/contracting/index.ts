export * from './compiler/index.js';
