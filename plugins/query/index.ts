export { queryPlugin } from './query.plugin.js';
