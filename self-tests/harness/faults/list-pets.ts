// Faults against the list-pets requirements.
import type { Fault } from '../faults-kit.js';

export const listPetsFaults: Fault[] = [];
