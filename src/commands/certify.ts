// `petstore-conformance certify --product FILE --key KEY.pem [--out DIR] [run flags]`: a run that a
// certificate can rest on, or none. It refuses, one line each (exit 2), whatever would leave a
// requirement unchecked or the suite unknown; then runs the whole suite, writes the submission
// folder (submission.ts) and signs it. A skipped or undecided requirement makes it NOT CERTIFIED.
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, SETTINGS, type Config } from '../config/config.js';
import { packageRootPath } from '../config/package-root.js';
import { CURRENT_REQUIREMENT_SET } from '../data/generated/requirement-ids.js';
import { setValidity } from '../data/requirement-sets.js';
import { suiteCommit } from '../report/manifest.js';
import type { Results } from '../report/results.js';
import { reportLevel } from '../report/verdict.js';
import { applyFlags, parseCommandLine, UsageError } from './cli/args.js';
import { readProduct, type Product } from './product.js';
import { readKey, SignError } from './sign.js';
import { writeSubmission } from './submission.js';

type Run = (argv: readonly string[], env: NodeJS.ProcessEnv) => Promise<number>;
const USAGE =
  'usage: petstore-conformance certify --product FILE --key KEY.pem [--out DIR] [run flags: --base-url URL, --seed N, …]';
const OWN = ['product', 'key', 'out'] as const;

/** certify's own flags taken out of the command line; the rest is a run's. */
function ownFlags(argv: readonly string[]): { own: Partial<Record<(typeof OWN)[number], string>>; rest: string[] } {
  const own: Partial<Record<(typeof OWN)[number], string>> = {};
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const name = OWN.find((f) => arg === `--${f}` || arg.startsWith(`--${f}=`));
    if (!name) rest.push(arg);
    else if (arg.includes('=')) own[name] = arg.slice(arg.indexOf('=') + 1);
    else if (argv[i + 1] === undefined) throw new UsageError(`--${name} needs a value; ${USAGE}`);
    else own[name] = argv[++i] as string;
  }
  return { own, rest };
}

/** Whatever a certificate cannot rest on, one line each ([] when the run may go ahead). */
export function refusals(
  config: Config,
  suite: { commit: string | null; dirty: boolean | null },
  out: string,
): string[] {
  const lines: string[] = [];
  const validity = setValidity(config.requirementSet);
  if (validity?.until)
    lines.push(
      `${SETTINGS.requirementSet.flag} ${config.requirementSet}: no longer supported (since ${validity.until}); certify against ${CURRENT_REQUIREMENT_SET}`,
    );
  if (config.only.length) lines.push(`${SETTINGS.only.flag}: a certification runs every requirement`);
  if (config.skip.length) lines.push(`${SETTINGS.skip.flag}: a certification runs every requirement`);
  if (config.readOnly) lines.push(`${SETTINGS.readOnly.flag}: the requirements that create pets would be skipped`);
  if (config.maxCreates < SETTINGS.maxCreates.default)
    lines.push(
      `${SETTINGS.maxCreates.flag} ${config.maxCreates}: below the default ${SETTINGS.maxCreates.default}, checks may run out of pets to create`,
    );
  if (suite.dirty)
    lines.push(
      `the suite's files differ from its commit ${suite.commit ?? '?'} (git status): certify with the suite as released`,
    );
  if (existsSync(out) && readdirSync(out).length > 0)
    lines.push(`--out ${out}: not empty; a submission is written to a new folder`);
  return lines;
}

/** Why a finished run is not a certification ('' when it is one). */
export function notCertifiedBecause(results: Results): string {
  const level = reportLevel(results);
  if (level !== 'conformant' && level !== 'fully-conformant') return `the level is ${level}: ${results.verdictReason}`;
  const open = results.requirements.filter((e) => !e.notScored && (e.outcome === 'skipped' || e.outcome === 'error'));
  if (open.length === 0) return '';
  return `${open.length} requirement(s) skipped or undecided: ${open.map((e) => `${e.id} (${e.outcome === 'error' ? 'undecided' : 'skipped'})`).join(', ')}`;
}

export interface CertifyOptions {
  /** The suite's git state; tests hand a clean one to a working copy. */
  suite?: () => { commit: string | null; dirty: boolean | null };
}

/** `certify`: 0 certified, 1 not (the run's own 1 or 3 kept), 2 refused or bad usage. */
export async function certifyCommand(
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  run: Run,
  opts: CertifyOptions = {},
): Promise<number> {
  const say = (line: string) => console.error(`petstore-conformance: ${line}`);
  const { own, rest } = ownFlags(argv);
  if (!own.product || !own.key) throw new UsageError(USAGE);
  const out = own.out ?? 'submission';
  const product = readProduct(own.product);
  if (typeof product === 'string') throw new UsageError(`--product ${product}`);
  let key: KeyObject;
  try {
    key = readKey(own.key, (pem) => createPrivateKey(pem), 'key');
  } catch (err) {
    if (err instanceof SignError) throw new UsageError(err.message);
    throw err;
  }
  const inv = parseCommandLine(rest);
  if (inv.command !== 'run') throw new UsageError(`certify runs the suite; --${inv.command} is not one of its flags`);
  const runEnv = { ...env };
  applyFlags(inv, runEnv);
  const config = loadConfig(runEnv);
  const refused = refusals(config, (opts.suite ?? (() => suiteCommit(packageRootPath)))(), out);
  for (const line of refused) say(`certify refused: ${line}`);
  if (refused.length) return 2;
  // The seed is chosen here, so that the README can name the command that replays this very run.
  const seed = config.seed ?? Math.floor(Math.random() * 2 ** 31);
  const runArgv = [...rest, ...(config.seed === undefined ? ['--seed', String(seed)] : [])];
  const code = await run([...runArgv, '--report-dir', out, '--har', join(out, 'requests.har')], { ...env });
  if (!existsSync(join(out, 'conformance.json'))) return code || 1;
  const results = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as Results;
  const because = notCertifiedBecause(results);
  writeSubmission(out, { product: product as Product, key, argv: runArgv, results, because });
  console.log(
    because
      ? `certify: ${out}: NOT CERTIFIED: ${because}`
      : `certify: ${out}: CERTIFIED ${reportLevel(results)}; signed submission written`,
  );
  return because ? code || 1 : 0;
}
