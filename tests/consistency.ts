// Consistency across operations (interface sections "Endpoints" and "Resources and their fields").
import type { Requirement } from '../src/requirement.js';

export const consistency: Requirement[] = [];
