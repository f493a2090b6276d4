// `import { expectConformant } from 'petstore-conformance/expect'`: one assertion for a test
// (vitest, jest, node:test), failing with the findings as the terminal words them.
import { AssertionError } from 'node:assert';
import { formatFindings } from '../report/findings.js';
import type { Results } from '../report/results.js';

/** Throws an AssertionError whose message is formatFindings(results) unless the verdict is conformant. */
export function expectConformant(results: Results): void {
  if (results.verdict === 'conformant') return;
  throw new AssertionError({ message: formatFindings(results), operator: 'expectConformant' });
}
