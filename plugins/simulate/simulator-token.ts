import type { ChainSimulator } from '../../core/chain/chain-simulator.js';
import { createToken } from '../../core/tokens.js';

/** The capped dry-run service the simulate plugin publishes; the dashboard's route should use it too. */
export const SimulatorToken = createToken<ChainSimulator>('simulate:simulator');
