// Deliberately broken servers: each breaks exactly one rule, named by the requirement that must
// catch it. self-tests/broken-servers/broken-servers.test.ts runs them all.
import type { Fault } from '../faults-kit.js';
import { authFaults } from './auth.js';
import { consistencyFaults } from './consistency.js';
import { createPetFaults } from './create-pet.js';
import { errorsFaults } from './errors.js';
import { generalFaults } from './general.js';
import { getPetFaults } from './get-pet.js';
import { lenienciesFaults } from './leniencies.js';
import { listPetsFaults } from './list-pets.js';
import { propertyFaults } from './properties.js';
import { serviceFaults } from './service.js';

// A fault's seeds come from its name (broken-servers.test.ts), not its place: a new one goes in
// the file of its area, and adding one re-draws no other fault's seeds.
export const faults: readonly Fault[] = [
  ...serviceFaults,
  ...authFaults,
  ...errorsFaults,
  ...listPetsFaults,
  ...createPetFaults,
  ...getPetFaults,
  ...consistencyFaults,
  ...lenienciesFaults,
  ...propertyFaults,
  ...generalFaults,
];
