export * from './vm/index.js';
