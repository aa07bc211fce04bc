export { simulatePlugin } from './simulate.plugin.js';
export { simulateConfigSchema, type SimulateConfig } from './simulate.config.js';
export { SimulatorToken } from './simulator-token.js';
export { ChainSimulator, type SimulationLimits } from 'chainhost/chain';
/** The dry-run payload builder and response decoder, for the dashboard's simulate route. */
export { decodeSimulationResponse, simulationQueryPath, simulationRequestHex, simulationRequestJson, type SimulationRequest, type SimulationResponse } from 'chainhost/chain';
