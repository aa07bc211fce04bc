export * from '../../core/contracting/index.js';
