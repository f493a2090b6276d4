// Interface section "What the service does": JSON bodies, the version segment.
import type { Requirement } from '../src/requirement.js';

export const service: Requirement[] = [];
