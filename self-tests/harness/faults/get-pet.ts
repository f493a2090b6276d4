// Faults against the get-pet requirements.
import type { Fault } from '../faults-kit.js';

export const getPetFaults: Fault[] = [];
