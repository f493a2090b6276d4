// `petstore-conformance verify-submission DIR [--pub KEY]`: the reviewer's bot. It runs nothing:
// it reads the folder `certify` wrote and prints one line per check, ok or FAIL, exit 0 only when
// every check passes (1 otherwise, 2 on bad usage). Without --pub the folder's own certifier.pub
// is used, which proves the folder is whole but not who signed it; the line says so.
import { createPublicKey, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { packageRootPath } from '../config/package-root.js';
import { exclusionsOf, exclusionsSha256, requirementSetIds, setValidity } from '../data/requirement-sets.js';
import { sha256, suiteDigest, type Manifest } from '../report/manifest.js';
import { MANIFEST_FILE } from '../report/reporter.js';
import type { Results } from '../report/results.js';
import { SUITE_VERSION } from './cli/help.js';
import { notCertifiedBecause } from './certify.js';
import { readProduct } from './product.js';
import { fingerprint, hashProblem, readKey, signatureProblem, SignError } from './sign.js';
import { PRODUCT_FILE, PUBLIC_KEY_FILE } from './submission.js';

const USAGE = 'usage: petstore-conformance verify-submission DIR [--pub KEY.pub]';

interface Folder {
  dir: string;
  pub: KeyObject;
  ownKey: boolean;
  manifest: Manifest;
  results: Results;
}

/** Each check: '' when it holds, else what is wrong; its 'ok' line says what was checked. */
const CHECKS: { name: string; ok: (f: Folder) => string; check: (f: Folder) => string }[] = [
  {
    name: 'signature',
    ok: (f) => {
      const own = f.ownKey ? ` (the folder's own ${PUBLIC_KEY_FILE}: pass --pub to check who signed)` : '';
      return `signed by the Ed25519 key ${fingerprint(f.pub).slice(0, 16)}…${own}`;
    },
    check: (f) => signatureProblem(f.dir, f.pub) ?? '',
  },
  {
    name: 'hashes',
    ok: (f) => `${f.manifest.reports.length} files match their SHA-256 in ${MANIFEST_FILE}`,
    check: (f) => {
      const h = hashProblem(f.dir);
      return typeof h === 'string' ? h : '';
    },
  },
  {
    name: 'product',
    ok: () => `${PRODUCT_FILE} matches schemas/product.schema.json and its SHA-256 in ${MANIFEST_FILE}`,
    check: (f) => {
      const p = f.manifest.product;
      if (!p) return `${MANIFEST_FILE} names no product file`;
      const product = readProduct(join(f.dir, p.file));
      if (typeof product === 'string') return product;
      return sha256(readFileSync(join(f.dir, p.file))) === p.sha256
        ? ''
        : `${p.file} does not match its SHA-256 in ${MANIFEST_FILE}`;
    },
  },
  {
    name: 'requirement set',
    ok: (f) => `${f.manifest.requirementSet?.id} is supported and its ids are this suite's`,
    check: (f) => {
      const set = f.manifest.requirementSet;
      if (!set) return `${MANIFEST_FILE} names no requirement set`;
      const validity = setValidity(set.id);
      if (!validity) return `${set.id} is not a requirement set of this suite`;
      if (validity.until) return `${set.id} is no longer supported (since ${validity.until})`;
      if (f.results.run.requirementSet?.id !== set.id) return `conformance.json was scored against another set`;
      const excluded = exclusionsOf(set.id);
      if ((excluded.length ? exclusionsSha256(excluded) : undefined) !== set.exclusions)
        return `${set.id}: its exclusions are not the ones this suite's record of the set holds`;
      return sha256([...requirementSetIds(set.id)].sort().join('\n')) === set.sha256
        ? ''
        : `${set.id}: its SHA-256 is not the set's`;
    },
  },
  {
    name: 'outcomes',
    ok: (f) => `every requirement ran and was decided; level ${f.results.level}`,
    check: (f) => {
      const { selection, readOnly } = f.results.run;
      if (selection.only.length || selection.skip.length) return `the run was a selection (--only/--skip)`;
      if (readOnly) return 'the run was read-only';
      return notCertifiedBecause(f.results);
    },
  },
  {
    name: 'suite',
    ok: (f) =>
      `${f.manifest.suite.name} ${f.manifest.suite.version}, SHA-256 ${f.manifest.suite.sha256.slice(0, 16)}…, as this suite`,
    check: (f) => {
      const s = f.manifest.suite;
      if (s.version !== SUITE_VERSION || f.results.suite.version !== s.version)
        return `suite version ${s.version}: this is ${SUITE_VERSION} (run verify-submission with petstore-conformance@${s.version})`;
      return s.sha256 === suiteDigest(packageRootPath).sha256
        ? ''
        : `the suite's SHA-256 ${s.sha256.slice(0, 16)}… is not that of ${SUITE_VERSION}`;
    },
  },
  {
    name: 'date',
    ok: (f) => `the run finished ${f.results.run.finishedAt.slice(0, 10)}, while its set was valid`,
    check: (f) => {
      const validity = setValidity(f.manifest.requirementSet?.id ?? '');
      const day = String(f.results.run.finishedAt).slice(0, 10);
      if (!validity) return 'no requirement set to date the run by';
      if (day < validity.from) return `the run finished ${day}, before its set was frozen (${validity.from})`;
      return validity.until && day >= validity.until
        ? `the run finished ${day}, after its set's support ended (${validity.until})`
        : '';
    },
  },
];

/** One line per check, and whether all passed. */
export function verifySubmission(dir: string, pubPath: string | undefined): { ok: boolean; lines: string[] } {
  if (!existsSync(join(dir, MANIFEST_FILE)) || !existsSync(join(dir, 'conformance.json')))
    throw new SignError(`${dir}: no ${MANIFEST_FILE} and conformance.json (a folder certify wrote)`);
  const pub = readKey(pubPath ?? join(dir, PUBLIC_KEY_FILE), (pem) => createPublicKey(pem), 'public key');
  const read = (file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as unknown;
  const folder: Folder = {
    dir,
    pub,
    ownKey: pubPath === undefined,
    manifest: read(MANIFEST_FILE) as Manifest,
    results: read('conformance.json') as Results,
  };
  const lines = CHECKS.map(({ name, ok, check }) => {
    let problem: string;
    try {
      problem = check(folder);
    } catch (err) {
      problem = `cannot be checked: ${err instanceof Error ? err.message : String(err)}`;
    }
    return problem ? `FAIL ${name}: ${problem}` : `ok   ${name}: ${ok(folder)}`;
  });
  return { ok: lines.every((l) => l.startsWith('ok')), lines };
}

/** `verify-submission`: the exit code. */
export function verifySubmissionCommand(argv: readonly string[]): number {
  try {
    let parsed;
    try {
      parsed = parseArgs({
        args: [...argv],
        options: { pub: { type: 'string' } },
        allowPositionals: true,
        strict: true,
      });
    } catch (err) {
      throw new SignError(`${(err as Error).message.split('\n')[0]}; ${USAGE}`);
    }
    const [dir, ...more] = parsed.positionals;
    if (!dir || more.length) throw new SignError(USAGE);
    const { ok, lines } = verifySubmission(dir, parsed.values.pub);
    for (const line of lines) console.log(line);
    console.log(ok ? `verify-submission: ${dir}: every check passed` : `verify-submission: ${dir}: NOT VERIFIED`);
    return ok ? 0 : 1;
  } catch (err) {
    if (!(err instanceof SignError)) throw err;
    console.error(`petstore-conformance: ${err.message}`);
    return 2;
  }
}
