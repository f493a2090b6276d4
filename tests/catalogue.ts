// Every requirement of the interface, as one plain list. Files mirror the interface's sections.
import type { Requirement } from '../src/requirement.js';
import { authentication } from './authentication.js';
import { createPet } from './create-pet.js';
import { getPet } from './get-pet.js';
import { listPets } from './list-pets.js';

export const catalogue: readonly Requirement[] = Object.freeze([...authentication, ...listPets, ...createPet, ...getPet]);
