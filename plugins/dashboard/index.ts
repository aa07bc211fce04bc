export { dashboardPlugin } from './dashboard.plugin.js';
export { dashboardConfigSchema, type DashboardOptions, type DashboardOptionsInput } from './dashboard.config.js';
export { DashboardSurface, DASHBOARD_SERVER, type DashboardSurfaceOptions } from './dashboard-surface.js';
export type { NewBlockMessage, StateChangeMessage, ContractEventMessage } from './ws/feed-messages.js';
