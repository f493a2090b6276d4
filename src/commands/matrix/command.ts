// `petstore-conformance matrix A.json B.json … --out DIR`: the runs of several implementations side by side, as matrix.html and matrix.md.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import { firstError, readJsonFile, schemaValidators } from '../../report/baseline.js';
import { INTERFACE, REPORT_FORMAT, type Results } from '../../report/results.js';
import { oneLine } from '../../report/words.js';
import { renderMatrixHtml } from './html.js';
import { renderMatrixMarkdown } from './markdown.js';
import { allRows, buildMatrix, labelOf, versionSpread, type MatrixInput } from './model.js';

const USAGE = 'usage: petstore-conformance matrix A.json [B.json …] --out DIR [--allow-mixed] [--history]';

export const MATRIX_HELP = `Usage: petstore-conformance matrix A.json [B.json …] --out DIR [--allow-mixed] [--history]

Puts the conformance.json of several runs (one per implementation) side by side: one row per
requirement any of them ran (a requirement a run lacks shows "not run"), grouped by area, one
column per run headed by its label (--label at run time, else the target's host), conformance
level and MUST/SHOULD counts; below, each run's badge, level, counts, seed, suite version and run
date. Writes DIR/matrix.html (self-contained,
opens offline, filters: only rows where implementations differ, only MUST, only where a requirement
fails in exactly one implementation or fails in all; prints well) and DIR/matrix.md (the same
tables for GitHub, differing rows marked ≠, with the same two marks). A failed or undecided cell
opens its first reason; a cell links to the run's own conformance.html when that file sits beside
the input. One input is allowed: its column alone, in the same format.

Every input is validated against schemas/conformance-report.schema.json. Runs of different suite
or interface versions are refused unless --allow-mixed is given, which marks the mixed columns;
a report format of another major version is always refused (its fields cannot be read as 1.x).

--history: the runs of one implementation (one label) over time or versions: columns in the order
the runs finished, headed by date and suite version, each row with its trend (e.g. "failed since
2026-11-24 12:00 UTC · suite 0.1.0, after 2 changes").
Exit 0 when both files are written; 2 for bad usage or an input that is not a readable
conformance.json, with one line saying which.`;

/** Bad usage or an unreadable input: one line, exit 2. */
class MatrixError extends Error {
  override name = 'MatrixError';
}

/** Reads one input: a conformance.json of format 1.x, valid against the published schema. */
function loadInput(path: string): Results {
  const fail = (problem: string) => new MatrixError(`matrix: ${path}: ${problem}`);
  const { value } = readJsonFile(path, fail);
  const raw = value as { format?: unknown; formatVersion?: unknown; interface?: { version?: unknown } } | null;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || raw.format !== REPORT_FORMAT) {
    throw fail(`not a conformance report (conformance.json has "format": "${REPORT_FORMAT}")`);
  }
  const major = typeof raw.formatVersion === 'string' ? raw.formatVersion.split('.')[0] : undefined;
  if (major !== '1')
    throw fail(`report format version ${JSON.stringify(raw.formatVersion)} cannot be read: this suite reads 1.x`);
  // The schema pins the interface version this suite writes: a run of another interface version is
  // validated as if of this one, so that its version is refused (or, with --allow-mixed, marked) as mixed, not as invalid.
  const other =
    raw.interface &&
    typeof raw.interface === 'object' &&
    typeof raw.interface.version === 'string' &&
    raw.interface.version !== INTERFACE.version;
  const view = other ? { ...raw, interface: { ...raw.interface, version: INTERFACE.version } } : raw;
  const { report } = schemaValidators();
  if (!report(view))
    throw fail(`not a valid conformance.json (schemas/conformance-report.schema.json): ${firstError(report.errors)}`);
  return value as Results;
}

/**
 * A file of the run's own (its conformance.html, its badge.svg), as a link from `outDir`: only when
 * it sits beside the input and is that input's (the input is the folder's conformance.json, or a
 * renamed copy in a folder that holds no other conformance.json), so a cell never links to another run's evidence.
 */
function besideHref(path: string, outDir: string, file: string): string | undefined {
  const folder = dirname(resolve(path));
  const own = join(folder, file);
  if (!existsSync(own)) return undefined;
  if (basename(path) !== 'conformance.json' && existsSync(join(folder, 'conformance.json'))) return undefined;
  return relative(outDir, own).split(sep).map(encodeURIComponent).join('/');
}

/** mkdir -p, one level at a time: Node's own recursive mkdirSync spins forever where the kernel refuses with ENOENT (under /proc). */
function makeDir(dir: string): void {
  if (existsSync(dir)) return;
  if (dirname(dir) !== dir) makeDir(dirname(dir));
  mkdirSync(dir);
}

async function run(argv: readonly string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        out: { type: 'string' },
        'allow-mixed': { type: 'boolean' },
        history: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    throw new MatrixError(`matrix: ${oneLine((err as Error).message, 160)} (${USAGE})`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(MATRIX_HELP);
    return 0;
  }
  if (positionals.length === 0) throw new MatrixError(`matrix needs at least one conformance.json (${USAGE})`);
  if (!values.out) throw new MatrixError(`matrix needs --out DIR, the folder for matrix.html and matrix.md (${USAGE})`);
  const history = values.history === true;
  // A history follows one implementation across suite versions: mixed versions are its point.
  const allowMixed = values['allow-mixed'] === true || history;
  const outDir = resolve(values.out);
  const inputs: MatrixInput[] = positionals.map((path) => {
    const href = besideHref(path, outDir, 'conformance.html');
    const badge = besideHref(path, outDir, 'badge.svg');
    return {
      path,
      results: loadInput(path),
      ...(href ? { reportHref: href } : {}),
      ...(badge ? { badgeHref: badge } : {}),
    };
  });
  const spread = versionSpread(inputs);
  if (spread.length > 0 && !allowMixed) {
    throw new MatrixError(
      `matrix: the runs differ in ${spread.join('; ')}: a matrix compares like with like; give --allow-mixed to put them side by side anyway`,
    );
  }
  if (history) {
    const labels = [...new Set(inputs.map((i) => labelOf(i.results)))];
    if (labels.length > 1)
      throw new MatrixError(`matrix --history follows one implementation; these runs are of ${labels.join(', ')}`);
  }
  const matrix = buildMatrix(inputs, { history });
  try {
    makeDir(outDir);
    writeFileSync(join(outDir, 'matrix.html'), renderMatrixHtml(matrix));
    writeFileSync(join(outDir, 'matrix.md'), renderMatrixMarkdown(matrix));
  } catch (err) {
    throw new MatrixError(
      `matrix: cannot write to ${values.out}: ${(err as NodeJS.ErrnoException).code ?? oneLine((err as Error).message, 120)}`,
    );
  }
  const rows = allRows(matrix);
  const differ = rows.filter((r) => r.differs).length;
  const size = `${rows.length} requirements × ${inputs.length} implementation${inputs.length === 1 ? '' : 's'}`;
  const differs = `${differ} row${differ === 1 ? '' : 's'} differ${differ === 1 ? 's' : ''}`;
  const mixed = matrix.mixed.length ? ' (mixed versions, marked)' : '';
  const wrote = `wrote ${join(values.out, 'matrix.html')} and ${join(values.out, 'matrix.md')}`;
  console.log(`matrix: ${size}, ${differs}${mixed}; ${wrote}`);
  return 0;
}

/** The command: returns the exit code; bad usage or input is one line on stderr and 2, never a stack trace. */
export async function matrixCommand(argv: readonly string[]): Promise<number> {
  try {
    return await run(argv);
  } catch (err) {
    if (!(err instanceof MatrixError)) throw err;
    console.error(`petstore-conformance: ${err.message}`);
    return 2;
  }
}
