// Faults against the general requirements.
import type { Fault } from '../faults-kit.js';

export const generalFaults: Fault[] = [];
