// Interface section "Errors": every error carries the Error body.
import type { Requirement } from '../src/requirement.js';

export const errors: Requirement[] = [];
