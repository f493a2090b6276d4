// Every requirement of the interface, as one plain list. Files mirror the interface's sections.
import { checksOf, type Requirement } from '../src/checks/requirement.js';
import { authentication } from './authentication.js';
import { consistency } from './consistency.js';
import { createPet } from './create-pet.js';
import { errors } from './errors.js';
import { getPet } from './get-pet.js';
import { listPets } from './list-pets.js';
import { service } from './service.js';

export const catalogue: readonly Requirement[] = Object.freeze([
  ...service,
  ...authentication,
  ...errors,
  ...listPets,
  ...createPet,
  ...getPet,
  ...consistency,
]);

/** Every test the suite runs: each requirement's own check, then the properties each carries. */
export const checks = checksOf(catalogue);
