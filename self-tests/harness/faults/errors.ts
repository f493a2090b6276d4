// Faults against the errors requirements.
import type { Fault } from '../faults-kit.js';

export const errorsFaults: Fault[] = [];
