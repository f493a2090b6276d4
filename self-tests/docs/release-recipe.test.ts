// The release recipe (examples/github-actions/conformance.yml) runs as it stands: its shell steps,
// taken from the workflow file, run in bash against the bundled reference server, twice, as two
// releases would. `npx` runs this checkout's bin; `gh` is a stand-in that lists the first run as
// the last successful one, downloads its reports, and records the comment it is asked to post.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { parse } from 'yaml';
import { bin, cleanEnv, root, tempDir } from '../net-kit.js';

interface Step {
  name?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
}
const wf = parse(readFileSync(join(root, 'examples/github-actions/conformance.yml'), 'utf8')) as {
  jobs: Record<string, { steps: Step[] }>;
};
const steps = Object.values(wf.jobs).flatMap((j) => j.steps);
const step = (name: string): Step => {
  const s = steps.find((x) => x.name === name);
  if (!s?.run) throw new Error(`no step "${name}" with a run in the recipe`);
  return s;
};

/** What GitHub's expressions in the steps' env stand for here; the target and key stay unset (the bundled server). */
const EXPRESSIONS: Record<string, string | undefined> = {
  '${{ github.token }}': 'token',
  '${{ github.repository }}': 'team/petstore',
  '${{ github.workflow }}': 'Conformance (staging)',
  '${{ github.event.pull_request.number }}': '7',
  '${{ github.run_number }}': '42',
};

test(
  'the release recipe: run with the baseline, upload, diff against the previous release, post the Markdown',
  { timeout: 600_000 },
  () => {
    const work = tempDir('release');
    const shims = join(work, '.shims');
    const artifacts = join(work, '.artifacts');
    mkdirSync(shims);
    // The team's baseline, committed at the repository's root as the recipe expects.
    copyFileSync(
      join(root, 'examples/github-actions/conformance-baseline.json'),
      join(work, 'conformance-baseline.json'),
    );
    writeFileSync(
      join(shims, 'npx'),
      `#!/bin/sh\n[ "$1" = petstore-conformance ] || exit 97\nshift\nexec "${process.execPath}" "${bin}" "$@"\n`,
    );
    writeFileSync(
      join(shims, 'gh'),
      `#!/bin/sh
echo "gh $*" >> "${join(work, 'gh.log')}"
case "$1 $2" in
  "run list") if [ -d "${artifacts}" ]; then echo 1001; fi ;;
  "run download") dir=$(echo "$*" | sed 's/.*--dir \\([^ ]*\\).*/\\1/'); mkdir -p "$dir" && cp "${artifacts}"/* "$dir"/ ;;
  "pr comment") file=$(echo "$*" | sed 's/.*--body-file \\([^ ]*\\).*/\\1/'); cp "$file" "${join(work, 'posted.md')}" ;;
  *) exit 98 ;;
esac
`,
    );
    chmodSync(join(shims, 'npx'), 0o755);
    chmodSync(join(shims, 'gh'), 0o755);
    const summary = join(work, 'summary.md');

    const run = (name: string) => {
      const s = step(name);
      const env: Record<string, string> = {
        PATH: `${shims}:${process.env.PATH ?? ''}`,
        GITHUB_STEP_SUMMARY: summary,
        PETSTORE_ONLY: 'auth.challenge,auth.missing-key',
      };
      for (const [k, v] of Object.entries(s.env ?? {})) {
        const value = v.includes('${{') ? EXPRESSIONS[v] : v;
        if (value !== undefined) env[k] = value;
      }
      // GitHub runs `run:` with bash -e and pipefail.
      const r = spawnSync('bash', ['-e', '-o', 'pipefail', '-c', s.run as string], {
        cwd: work,
        env: cleanEnv(env),
        encoding: 'utf8',
        timeout: 60_000,
      });
      return { code: r.status, out: `${r.stdout}${r.stderr}` };
    };
    const release = () => {
      const fetched = run("Fetch the previous release's report");
      expect(fetched.code, fetched.out).toBe(0);
      const suite = run('Run the conformance suite');
      // What the diff step's `if:` asks: both reports there.
      const diffed =
        existsSync(join(work, 'previous/conformance.json')) && existsSync(join(work, 'reports/conformance.json'))
          ? run('Diff against the previous release')
          : undefined;
      return { fetched, suite, diffed };
    };

    // The first release: nothing to diff against yet.
    const first = release();
    expect(first.fetched.out).toContain('no previous report to diff against');
    expect(first.suite.code, first.suite.out).toBe(0);
    // The baseline was used: the reference server passes its entry, so it is reported fixed.
    expect(first.suite.out).toMatch(/⚠ auth\.challenge \(fixed: remove it from the baseline\)/);
    expect(JSON.parse(readFileSync(join(work, 'reports/manifest.json'), 'utf8')).baseline.path).toBe(
      'conformance-baseline.json',
    );
    expect(first.diffed).toBeUndefined();
    // "Upload the reports": the artifact is what reports/ holds.
    mkdirSync(artifacts);
    for (const f of ['conformance.json', 'conformance.md', 'manifest.json'])
      copyFileSync(join(work, 'reports', f), join(artifacts, f));

    // The next release: the previous report is downloaded and diffed, and the Markdown posted.
    const second = release();
    expect(second.fetched.out).toContain('previous report: run 1001');
    expect(second.suite.code, second.suite.out).toBe(0);
    expect(second.diffed?.code, second.diffed?.out).toBe(0);
    expect(second.diffed?.out).toMatch(/^Pet Store conformance: no new MUST failure/);
    const diffMd = readFileSync(join(work, 'reports/diff.md'), 'utf8');
    expect(readFileSync(summary, 'utf8')).toContain(diffMd);
    expect(step('Post the diff on the pull request').if).toContain("github.event_name == 'pull_request'");
    const posted = run('Post the diff on the pull request');
    expect(posted.code, posted.out).toBe(0);
    expect(readFileSync(join(work, 'posted.md'), 'utf8')).toBe(diffMd);
    expect(readFileSync(join(work, 'gh.log'), 'utf8')).toMatch(
      /gh run download 1001 --name conformance-reports --dir previous/,
    );
  },
);
