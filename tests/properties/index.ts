// Properties over inputs generated from schemas/, each tied to a catalogue requirement.
import type { Property } from '../../src/requirement.js';

export const properties: readonly Property[] = Object.freeze([]);
