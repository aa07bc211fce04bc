export { cryptoPlugin } from './crypto.plugin.js';
