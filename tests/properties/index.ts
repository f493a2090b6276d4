// Properties over inputs generated from schemas/, each tied to a catalogue requirement.
import type { Property } from '../../src/checks/requirement.js';
import { authenticationProperties } from './authentication.js';
import { consistencyProperties } from './consistency.js';
import { createPetProperties } from './create-pet.js';
import { listPetsProperties } from './list-pets.js';

export const properties: readonly Property[] = Object.freeze([
  ...authenticationProperties,
  ...listPetsProperties,
  ...createPetProperties,
  ...consistencyProperties,
]);
