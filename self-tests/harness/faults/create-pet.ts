// Faults against the create-pet requirements.
import type { Fault } from '../faults-kit.js';

export const createPetFaults: Fault[] = [];
