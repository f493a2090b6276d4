// How a check's outcome ends its vitest test: a MUST not met (violated or undecided) fails it, a
// SHOULD only with PETSTORE_STRICT. Kept apart from the adapter (which needs a running vitest) so
// the kill matrix can hold vitest's verdicts equal to the reports' on every fault.
import type { CheckInput } from '../report/results.js';

export function failsItsTest(check: Pick<CheckInput, 'requirement' | 'outcome'>, strict: boolean): boolean {
  return (check.outcome === 'failed' || check.outcome === 'error') && (check.requirement.level === 'MUST' || strict);
}
