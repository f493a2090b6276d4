// What a run reports: the files it writes and the terminal summary.
// What each file holds is described in the README ("Reports"); conformance.json's format
// is published as schemas/conformance-report.schema.json.
import type { Config } from '../config/config.js';
import { ConformanceReporter } from './reporter.js';

export { ConformanceReporter } from './reporter.js';
export { CheckLines, ProgressLine, type Progress } from './progress.js';
export { RunEvents } from './events.js';
export type { Results, Verdict } from './results.js';

export function conformanceReporters(
  config: Config,
  // GITHUB_STEP_SUMMARY and NO_COLOR are settings of src/config/config.ts like the rest (without a flag).
  { stepSummary = config.stepSummary, color = Boolean(process.stdout.isTTY) && !config.noColor } = {},
): ConformanceReporter[] {
  // --reporter ndjson: stdout holds the events alone (src/report/events.ts), no summary.
  return [
    new ConformanceReporter(config, {
      stepSummary: stepSummary || undefined,
      color,
      print: config.reporter !== 'ndjson',
    }),
  ];
}
