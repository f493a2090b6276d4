// --baseline FILE: the known deviations of the service under test, so that a release gate fails on
// regressions only. FILE is a hand-written known-deviations file (schemas/baseline.schema.json) or
// the conformance.json of an earlier run, whose failed and undecided requirements become known.
// Known requirements still run; the report keeps their own outcome and marks them known.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Ajv2020, ErrorObject } from 'ajv/dist/2020.js';
import type * as ajvFormats from 'ajv-formats';
import { readSchemaFile } from '../data/schemas.js';
import { matches } from '../checks/select.js';
import { sha256 } from './manifest.js';
import { REPORT_FORMAT, type Baseline, type BaselineEntry, type Results } from './results.js';
import { oneLine } from './words.js';

export type { Baseline, BaselineEntry };

/** A baseline the run cannot use: one line, exit 2. */
export class BaselineError extends Error {
  override name = 'BaselineError';
}

let ajv: Ajv2020 | undefined;
const published = new Map<string, ReturnType<Ajv2020['compile']>>();
/** A published schema file (schemas/), compiled on first use (a run without --baseline never pays for it). */
export function publishedValidator(file: string): ReturnType<Ajv2020['compile']> {
  let validate = published.get(file);
  if (!validate) {
    if (!ajv) {
      // Loaded here: bundled with the command line, a static import would load ajv at every run's start.
      const require = createRequire(import.meta.url);
      const { Ajv2020: Ajv } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
      const addFormats = (require('ajv-formats') as typeof ajvFormats)
        .default as unknown as typeof ajvFormats.default.default;
      ajv = new Ajv({ allErrors: false, strict: false });
      addFormats(ajv);
    }
    validate = ajv.compile(readSchemaFile(file));
    published.set(file, validate);
  }
  return validate;
}

/** The baseline's and the report's published schemas. */
export const schemaValidators = () => ({
  baseline: publishedValidator('baseline.schema.json'),
  report: publishedValidator('conformance-report.schema.json'),
});

/** The first schema error in one line, e.g. "/known/0/until must match format "date"". */
export function firstError(errors: ErrorObject[] | null | undefined): string {
  const e = errors?.[0];
  if (!e) return 'invalid';
  const extra =
    e.keyword === 'additionalProperties'
      ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})`
      : '';
  return `${e.instancePath || '/'} ${e.message ?? 'is invalid'}${extra}`;
}

/** Reads a JSON file, throwing `make(problem)` with a one-line problem when it cannot be read or parsed. */
export function readJsonFile(path: string, make: (problem: string) => Error): { text: string; value: unknown } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw make(
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'is a folder, not a file'
          : `cannot be read (${code ?? String(err)})`,
    );
  }
  try {
    return { text, value: JSON.parse(text) as unknown };
  } catch (err) {
    throw make(`not JSON: ${oneLine((err as Error).message, 120)}`);
  }
}

/** An entry stops holding after the end of its `until` day (UTC). */
export function isExpired(entry: BaselineEntry, now: Date): boolean {
  return entry.until !== undefined && now.getTime() > Date.parse(`${entry.until}T23:59:59.999Z`);
}

/** A report's failed and undecided requirements, each with its first reason. */
function entriesOfReport(report: Results): BaselineEntry[] {
  const day = report.run.finishedAt.slice(0, 10);
  return report.requirements
    .filter((e) => e.outcome === 'failed' || e.outcome === 'error')
    .map((e) => ({
      id: e.id,
      reason: `${e.outcome === 'failed' ? 'failed' : 'could not be decided'} in the run of ${day}: ${oneLine(e.message, 160)}`,
    }));
}

/**
 * Loads and validates a baseline. `ids` (the whole catalogue) makes an entry that names no
 * requirement an error; `now` is the suite's clock, for `until`. Throws BaselineError.
 */
export function loadBaseline(
  path: string,
  { ids, now = new Date() }: { ids?: readonly string[]; now?: Date } = {},
): Baseline {
  const fail = (problem: string) => new BaselineError(`baseline ${path}: ${problem}`);
  const { text, value } = readJsonFile(path, fail);
  const isReport =
    typeof value === 'object' && value !== null && (value as { format?: unknown }).format === REPORT_FORMAT;
  const { baseline, report } = schemaValidators();
  let all: BaselineEntry[];
  // Hand-written entries: only they have an end date.
  let written: BaselineEntry[] = [];
  if (isReport) {
    if (!report(value)) throw fail(`not a valid conformance.json: ${firstError(report.errors)}`);
    all = entriesOfReport(value as Results);
  } else {
    if (!baseline(value))
      throw fail(
        `not a valid baseline (schemas/baseline.schema.json) nor a conformance.json: ${firstError(baseline.errors)}`,
      );
    all = written = (value as { known: BaselineEntry[] }).known;
  }
  if (ids) {
    for (const entry of all) {
      if (!ids.some((id) => matches(id, entry.id)))
        throw fail(`"${entry.id}" matches no requirement id or area (see --list)`);
    }
  }
  return {
    path,
    sha256: sha256(text),
    kind: isReport ? 'report' : 'known-deviations',
    entries: all.filter((e) => !isExpired(e, now)),
    expired: written.filter((e) => isExpired(e, now)),
  };
}
