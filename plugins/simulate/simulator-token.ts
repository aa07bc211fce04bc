import type { ChainSimulator } from 'chainhost/chain';
import { createToken } from 'chainhost/plugin';

/** The capped dry-run service the simulate plugin publishes; the dashboard's route should use it too. */
export const SimulatorToken = createToken<ChainSimulator>('simulate:simulator');
