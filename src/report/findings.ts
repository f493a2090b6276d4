// A run's findings read from code (the API's formatFindings and failedRequirements, and
// expectConformant's message): the terminal's own lines, without colour, from the one report view.
import type { RequirementResult, Results } from './results.js';
import { renderFindings } from './terminal.js';
import { reportView } from './view.js';

/**
 * The lines the terminal summary shows for a run, as plain text: the verdict, then each finding,
 * root cause first, with its one-line reason and its curl line (the key as `$PETSTORE_API_KEY`).
 */
export function formatFindings(results: Results, { width = 120 }: { width?: number } = {}): string {
  return renderFindings(reportView(results), { width });
}

/** A requirement the run found violated, with its message and its first exchange's curl line. */
export type FailedRequirement = Pick<RequirementResult, 'id' | 'level' | 'section' | 'statement' | 'reproduce'> & {
  message: string;
};

/** The requirements whose outcome is failed, in the report's order (MUST and SHOULD alike: `level` says which). */
export function failedRequirements(results: Results): FailedRequirement[] {
  return results.requirements
    .filter((r) => r.outcome === 'failed')
    .map(({ id, level, section, statement, message, reproduce }) => ({
      id,
      level,
      section,
      statement,
      message: message ?? 'failed',
      ...(reproduce ? { reproduce } : {}),
    }));
}
