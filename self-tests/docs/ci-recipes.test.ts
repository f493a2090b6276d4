// The docs hold: every file and heading the README, ARCHITECTURE.md and docs/ link to exists, the
// README stays short, every workflow parses and does what docs/ci.md says (key from a secret,
// reports uploaded, step summary), and every command line in the docs is one the CLI accepts.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, onTestFinished, test } from 'vitest';
import { parse } from 'yaml';
import { parseCommandLine } from '../../src/commands/cli/args.js';
import { loadConfig, SETTINGS } from '../../src/config/config.js';
import { ConformanceReporter, conformanceReporters } from '../../src/report/index.js';
import { areaOf } from '../../src/checks/requirement.js';
import { selectRequirements } from '../../src/checks/select.js';
import { catalogue } from '../../tests/catalogue.js';
import { root, tempDir } from '../net-kit.js';

/** The README and docs/, each with its path (links resolve from its folder). */
const docs = ['README.md', 'ARCHITECTURE.md', ...readdirSync(join(root, 'docs')).map((f) => `docs/${f}`)].map(
  (path) => ({
    path,
    text: readFileSync(join(root, path), 'utf8'),
  }),
);
/** All of them as one text: what a reader of the docs is told. */
const readme = docs.map((d) => d.text).join('\n');

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
/** The anchors of a Markdown text's headings (outside code blocks). */
const anchors = (text: string) =>
  new Set(
    text
      .replace(/```[\s\S]*?```/g, '')
      .split('\n')
      .filter((l) => /^#{1,6} /.test(l))
      .map((l) => slug(l.replace(/^#+ /, ''))),
  );
const areas = [...new Set(catalogue.map((r) => areaOf(r.id)))].sort();
const workflowFiles = readdirSync(join(root, 'examples/github-actions')).filter((f) => /\.ya?ml$/.test(f));

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
interface Workflow {
  name: string;
  on: unknown;
  jobs: Record<string, { steps: Step[]; strategy?: { matrix?: Record<string, unknown[]> } }>;
}
const workflow = (file: string) => parse(readFileSync(join(root, 'examples/github-actions', file), 'utf8')) as Workflow;

/** Splits a shell command line into words (quotes, no expansion), GitHub expressions replaced by `value`. */
function words(line: string, value = 'X'): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (const m of line.replace(/\$\{\{[^}]*\}\}/g, value).matchAll(re)) out.push(m[1] ?? m[2] ?? m[3] ?? '');
  return out;
}

/** The arguments of every `npx petstore-conformance ...` in a text (comments dropped). */
function commandLines(text: string): string[][] {
  // A replay hint inside a sentence ends at its closing parenthesis or semicolon.
  return [...text.matchAll(/npx petstore-conformance([^\n#`);]*)/g)].map((m) => words((m[1] ?? '').trim()));
}

describe('files the docs point to', () => {
  // Every relative link of every doc, resolved from its folder, with its anchor if any.
  const links = docs.flatMap(({ path, text }) =>
    [...text.matchAll(/\]\(([^)\s]+)\)/g)]
      .map((m) => m[1] as string)
      .filter((p) => !/^[a-z]+:/.test(p))
      .map((p) => {
        const [file = '', anchor] = p.split('#');
        return { from: path, file: file ? join(dirname(path), file) : path, anchor };
      }),
  );
  const linked = links.map((l) => l.file);
  const named = [...readme.matchAll(/`((?:examples|schemas|src|tests|self-tests|bin)\/[^`\s]*)`/g)].map(
    (m) => m[1] as string,
  );

  test('the docs link the CI recipes', () => {
    for (const f of workflowFiles) expect(linked).toContain(`examples/github-actions/${f}`);
  });

  test.each([...new Set([...linked, ...named])])('%s exists', (path) => {
    expect(existsSync(join(root, path)), path).toBe(true);
  });

  test('every link to a heading finds it', () => {
    const broken = links
      .filter((l) => l.anchor !== undefined && l.file.endsWith('.md'))
      .filter((l) => !anchors(readFileSync(join(root, l.file), 'utf8')).has(l.anchor as string))
      .map((l) => `${l.from}: ${l.file}#${l.anchor}`);
    expect(broken).toEqual([]);
  });

  test('the README stays one screenful per purpose: at most 250 lines', () => {
    expect(readFileSync(join(root, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(251);
  });

  test('every setting is in the docs with its flag and variable', () => {
    for (const s of Object.values(SETTINGS) as { env: string; flag?: string }[]) {
      if (s.flag) expect(readme).toContain(`\`${s.flag}`);
      expect(readme).toContain(`\`${s.env}\``);
    }
  });

  test('the exit codes table has 0 to 3', () => {
    for (const code of [0, 1, 2, 3]) expect(readme).toMatch(new RegExp(`^\\| ${code} \\| \\S`, 'm'));
  });
});

describe.each(workflowFiles)('%s', (file) => {
  const wf = workflow(file);
  const steps = Object.values(wf.jobs).flatMap((j) => j.steps);
  const runStep = steps.find((s) => s.run?.includes('npx petstore-conformance'));

  test('parses as a workflow with jobs and steps, and is not in .github/', () => {
    expect(wf.name).toBeTruthy();
    expect(wf.on).toBeTruthy();
    expect(steps.length).toBeGreaterThan(0);
    expect(existsSync(join(root, '.github/workflows', file))).toBe(false);
  });

  test('takes the target from a variable and the key from a secret, never a literal', () => {
    expect(runStep?.env?.PETSTORE_API_KEY).toMatch(/^\$\{\{ secrets\.\w+ \}\}$/);
    expect(runStep?.env?.PETSTORE_BASE_URL).toMatch(/^\$\{\{ vars\.\w+ \}\}$/);
    expect(runStep?.env?.PETSTORE_SEED).toMatch(/^\$\{\{ github\.run_number \}\}$/);
  });

  test('uploads reports/ as an artifact, whatever the outcome', () => {
    const upload = steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
    expect(upload?.if).toBe('always()');
    expect(upload?.with?.path).toBe('reports/');
  });

  test('every command line in it is accepted by the CLI, and --only names real areas', () => {
    const matrix = Object.values(wf.jobs)[0]?.strategy?.matrix?.area as string[] | undefined;
    for (const value of matrix ?? ['X']) {
      for (const args of commandLines(runStep?.run ?? '').map((a) => a.map((w) => w.replace('X', value)))) {
        const inv = parseCommandLine(args);
        expect(inv.command).toBe('run');
        if (inv.flags.only)
          expect(selectRequirements(catalogue, { only: inv.flags.only.split(','), skip: [] }).length).toBeGreaterThan(
            0,
          );
      }
    }
  });
});

test('the sharded workflow covers every area, once', () => {
  const matrix = Object.values(workflow('conformance-sharded.yml').jobs)[0]?.strategy?.matrix?.area as string[];
  expect([...matrix].sort()).toEqual(areas);
});

test('the step summary is written: by the suite, and by the workflow when the suite stopped before a report', () => {
  const steps = Object.values(workflow('conformance.yml').jobs).flatMap((j) => j.steps);
  expect(steps.some((s) => s.run?.includes('>> "$GITHUB_STEP_SUMMARY"') && s.if?.includes('failure()'))).toBe(true);
  // The suite's part: GITHUB_STEP_SUMMARY is a setting, and the reports append conformance.md to its file.
  expect(SETTINGS.stepSummary.env).toBe('GITHUB_STEP_SUMMARY');
  const dir = tempDir('step-summary');
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const summary = join(dir, 'summary.md');
  writeFileSync(summary, 'an earlier step\n');
  const config = loadConfig(
    { GITHUB_STEP_SUMMARY: summary, PETSTORE_REPORT_DIR: join(dir, 'reports') },
    { dotenv: false },
  );
  for (const r of conformanceReporters(config))
    if (r instanceof ConformanceReporter) r.writeUnreachable(catalogue.slice(0, 2), 'cannot reach the target');
  const markdown = readFileSync(join(dir, 'reports/conformance.md'), 'utf8');
  expect(markdown).toContain('Pet Store conformance: Not tested');
  expect(readFileSync(summary, 'utf8')).toBe(`an earlier step\n${markdown}\n`);
});

test('every command line in the docs is accepted by the CLI and names real ids or areas', () => {
  const lines = commandLines(readme.replace(/\\\n/g, ' '));
  expect(lines.length).toBeGreaterThan(3);
  for (const args of lines) {
    const inv = parseCommandLine(args.map((w) => (w === '$URL' ? 'https://example.com/v1' : w)));
    for (const key of ['only', 'skip'] as const) {
      for (const pattern of inv.flags[key]?.split(',') ?? []) {
        expect(
          selectRequirements(catalogue, { only: [pattern], skip: [] }).length,
          `${key} ${pattern}`,
        ).toBeGreaterThan(0);
      }
    }
  }
});

test('the sharding section lists exactly the areas of the catalogue', () => {
  const ci = readFileSync(join(root, 'docs/ci.md'), 'utf8');
  const section = ci.slice(ci.indexOf('## Sharding by area'));
  const listed = [...section.matchAll(/`(\w+)`/g)].map((m) => m[1] as string).filter((w) => !['only'].includes(w));
  expect([...new Set(listed)].sort()).toEqual(areas);
});
