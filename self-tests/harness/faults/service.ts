// Faults against the service requirements.
import type { Fault } from '../faults-kit.js';

export const serviceFaults: Fault[] = [];
