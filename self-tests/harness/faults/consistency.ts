// Faults against the consistency requirements.
import type { Fault } from '../faults-kit.js';

export const consistencyFaults: Fault[] = [];
