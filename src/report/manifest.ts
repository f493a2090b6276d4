// The certification manifest: SHA-256 of every report file, of the OpenAPI document and of the
// suite itself, so a certificate can be checked later against the exact suite that issued it.
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, openSync, readFileSync, readdirSync, readSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { ConformanceLevel, Results } from './results.js';
import { reportLevel } from './verdict.js';
import { exclusionsOf, exclusionsSha256, requirementSetIds } from '../data/requirement-sets.js';

export const MANIFEST_FORMAT = 'petstore-conformance/manifest';
/** 1.1.0 added `baseline`; 1.2.0 `requirementSet` and `targetFingerprint` (and `sign`/`verify` read it); 1.3.0 `level`;
 * 1.4.0 `product` (written by `certify`) and
 * `requirementSet.exclusions`. */
export const MANIFEST_VERSION = '1.4.0';

/**
 * What "the suite's package" is for its digest: the code, checks, schemas and pinned
 * dependencies. The digest equals the output of
 *   find bin src tests schemas package.json package-lock.json -type f | LC_ALL=C sort | xargs sha256sum | sha256sum
 * run in the suite's folder, so anyone can recompute it without this tool.
 */
export const SUITE_PATHS = ['bin', 'src', 'tests', 'schemas', 'package.json', 'package-lock.json'] as const;
export const DIGEST_COMMAND = `find ${SUITE_PATHS.join(' ')} -type f | LC_ALL=C sort | xargs sha256sum | sha256sum`;

export const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** The SHA-256 and size of a file, read in pieces (a HAR of a long run is large), for the manifest. */
export function digestFile(path: string): { bytes: number; sha256: string } {
  const hash = createHash('sha256');
  const chunk = Buffer.alloc(1 << 20);
  const fd = openSync(path, 'r');
  let bytes = 0;
  try {
    for (let n; (n = readSync(fd, chunk, 0, chunk.length, null)) > 0; bytes += n) hash.update(chunk.subarray(0, n));
  } finally {
    closeSync(fd);
  }
  return { bytes, sha256: hash.digest('hex') };
}

function filesUnder(root: string, path: string): string[] {
  const full = join(root, path);
  let stat;
  try {
    stat = statSync(full);
  } catch {
    return [];
  }
  if (stat.isFile()) return [path];
  if (!stat.isDirectory()) return [];
  return readdirSync(full).flatMap((name) => filesUnder(root, join(path, name)));
}

export function suiteDigest(root: string): { sha256: string; files: number } {
  const files = SUITE_PATHS.flatMap((p) => filesUnder(root, p))
    .map((f) => f.split(sep).join('/'))
    .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const lines = files.map((f) => `${sha256(readFileSync(join(root, f)))}  ${f}\n`).join('');
  return { sha256: sha256(lines), files: files.length };
}

function git(root: string, args: string[]): string | null {
  try {
    return execFileSync('git', args, {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5000,
    }).trim();
  } catch {
    return null;
  }
}

export type SuiteCommit = { commit: string | null; dirty: boolean | null };

/** One git command says both: the commit (`# branch.oid`) and the suite's files that differ from it. */
const STATUS = ['status', '--porcelain=v2', '--branch', '--', ...SUITE_PATHS];

function commitOf(status: string | null): SuiteCommit {
  const commit = /^# branch\.oid ([0-9a-f]{40})$/m.exec(status ?? '')?.[1];
  if (status === null || commit === undefined) return { commit: null, dirty: null };
  return { commit, dirty: status.split('\n').some((line) => line !== '' && !line.startsWith('# ')) };
}

/** The commit the suite runs from, and whether its files differ from it (null outside a git checkout). */
export function suiteCommit(root: string): SuiteCommit {
  return commitOf(git(root, STATUS));
}

/**
 * suiteCommit asked of git in the background, from now: the run's end reads it without waiting
 * for git (asking again, and waiting, only when it has not answered by then).
 */
export function suiteCommitAhead(root: string): () => SuiteCommit {
  let known: SuiteCommit | undefined;
  execFile('git', STATUS, { cwd: root, encoding: 'utf8', timeout: 5000 }, (err, out) => {
    known = commitOf(err ? null : out);
  });
  return () => known ?? suiteCommit(root);
}

export interface Manifest {
  format: typeof MANIFEST_FORMAT;
  formatVersion: string;
  createdAt: string;
  verdict: Results['verdict'];
  /** The conformance level (reportLevel). Since 1.3.0. */
  level: ConformanceLevel;
  target: string;
  interfaceVersion: string;
  /** `sha256` is the digest of the suite's files; `digestCommand` recomputes it in the suite's folder. */
  suite: {
    name: string;
    version: string;
    commit: string | null;
    dirty: boolean | null;
    sha256: string;
    files: number;
    digestCommand: string;
  };
  openapi: { path: string; sha256: string };
  reports: { file: string; bytes: number; sha256: string }[];
  /** The --baseline the run was judged against (its path as given and its SHA-256), when one was. Since 1.1.0. */
  baseline?: { path: string; sha256: string };
  /**
   * The requirement set the verdict was scored against, and the SHA-256 of its ids (sorted, one per line). Since 1.2.0.
   * With exclusions after accepted challenges, their SHA-256 (exclusionsSha256) too. Since 1.4.0.
   */
  requirementSet?: { id: string; sha256: string; exclusions?: string };
  /** What was tested: its base URL and the Server header it answered with, and their SHA-256. Since 1.2.0. */
  targetFingerprint: { baseUrl: string; server: string | null; sha256: string };
  /** The product file of a `certify` run: its name in the folder and its SHA-256 (also listed in reports). Since 1.4.0. */
  product?: { file: string; sha256: string };
}

export function buildManifest(
  results: Results,
  root: string,
  written: readonly { file: string; content: string }[],
  commit: { commit: string | null; dirty: boolean | null },
  /** Report files written elsewhere (the HAR, streamed during the run), already digested. */
  digested: Manifest['reports'] = [],
): Manifest {
  const openapi = join(root, 'schemas', 'openapi.json');
  return {
    format: MANIFEST_FORMAT,
    formatVersion: MANIFEST_VERSION,
    createdAt: results.run.finishedAt,
    verdict: results.verdict,
    level: reportLevel(results),
    target: results.target.baseUrl,
    interfaceVersion: results.interface.version,
    suite: {
      name: results.suite.name,
      version: results.suite.version,
      ...commit,
      ...suiteDigest(root),
      digestCommand: DIGEST_COMMAND,
    },
    openapi: { path: relative(root, openapi).split(sep).join('/'), sha256: sha256(readFileSync(openapi)) },
    reports: [
      ...written.map(({ file, content }) => ({ file, bytes: Buffer.byteLength(content), sha256: sha256(content) })),
      ...digested,
    ],
    ...(results.run.baseline
      ? { baseline: { path: results.run.baseline.path, sha256: results.run.baseline.sha256 } }
      : {}),
    ...(results.run.requirementSet
      ? {
          requirementSet: {
            id: results.run.requirementSet.id,
            sha256: sha256([...requirementSetIds(results.run.requirementSet.id)].sort().join('\n')),
            ...(exclusionsOf(results.run.requirementSet.id).length
              ? { exclusions: exclusionsSha256(exclusionsOf(results.run.requirementSet.id)) }
              : {}),
          },
        }
      : {}),
    targetFingerprint: {
      baseUrl: results.target.baseUrl,
      server: results.target.server ?? null,
      sha256: sha256(`${results.target.baseUrl}\n${results.target.server ?? ''}`),
    },
  };
}
