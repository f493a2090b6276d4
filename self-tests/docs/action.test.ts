// The GitHub Action (action.yml at the root) runs as a runner would run it: its shell steps in
// order, with GITHUB_* set and its expressions filled in from the inputs, against the bundled
// server and against a broken one. The `uses:` steps (setup-node, upload-artifact) are GitHub's
// own; what is checked of them is that the upload happens whatever the outcome.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { BUILD_TOOLS, DOCS, freshCheckout, installedPackages, weigh } from '../../scripts/action-install.js';
import { faults } from '../harness/faults/index.js';
import { CHILD_TIMEOUT, cleanEnv, referenceServer, root, tempDir, type TestServer } from '../net-kit.js';

interface Step {
  id?: string;
  name?: string;
  uses?: string;
  if?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
  'working-directory'?: string;
}
const action = parse(readFileSync(join(root, 'action.yml'), 'utf8')) as {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
};

/**
 * Runs every shell step in order, as a runner would, the action checked out at `actionPath`;
 * returns each step's exit code and the outputs.
 */
async function runAction(inputs: Record<string, string>, actionPath = root) {
  const workspace = tempDir('action');
  const runnerTemp = tempDir('runner-temp');
  const summary = join(workspace, 'summary.md');
  const outputs: Record<string, Record<string, string>> = {};
  const given = Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, inputs[k] ?? v.default ?? '']));
  const fill = (text: string) =>
    text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_all, expr: string) => {
      if (expr === 'github.action_path') return actionPath;
      if (expr === 'runner.temp') return runnerTemp;
      const input = /^inputs\.(.+)$/.exec(expr);
      if (input) return given[input[1] as string] ?? '';
      const out = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expr);
      if (out) return outputs[out[1] as string]?.[out[2] as string] ?? '';
      throw new Error(`an expression the self-test does not know: ${expr}`);
    });
  const codes: Record<string, number | null> = {};
  for (const [i, step] of action.runs.steps.entries()) {
    if (!step.run) continue;
    const output = join(workspace, `output-${i}`);
    writeFileSync(output, '');
    const env = cleanEnv({
      GITHUB_OUTPUT: output,
      GITHUB_STEP_SUMMARY: summary,
      GITHUB_WORKSPACE: workspace,
      RUNNER_TEMP: runnerTemp,
      ...Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, fill(v)])),
    });
    // Not spawnSync: the broken server answers from this process's event loop.
    const child = spawn(step.shell ?? 'bash', ['-e', '-c', fill(step.run)], {
      cwd: step['working-directory'] ? fill(step['working-directory']) : workspace,
      env,
      stdio: 'ignore',
    });
    codes[step.name ?? step.id ?? String(i)] = await new Promise<number | null>((resolve) =>
      child.on('close', resolve),
    );
    if (step.id)
      outputs[step.id] = Object.fromEntries(
        readFileSync(output, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => l.split(/=(.*)/s).slice(0, 2) as [string, string]),
      );
  }
  return { workspace, runnerTemp, summary, codes, outputs: outputs.run ?? {} };
}

const servers: TestServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

describe('action.yml', CHILD_TIMEOUT, () => {
  test('a composite action with the inputs a release job needs; the reports are uploaded whatever the outcome', () => {
    expect(action.runs.using).toBe('composite');
    for (const input of [
      'base-url',
      'api-key',
      'baseline',
      'baseline-strict',
      'strict',
      'read-only',
      'label',
      'start',
      'report-dir',
    ])
      expect(Object.keys(action.inputs)).toContain(input);
    const upload = action.runs.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
    expect(upload?.if).toBe('always()');
    expect(upload?.with?.path).toBe('${{ inputs.report-dir }}');
    // No input is pasted into a script: each reaches the shell as a variable.
    for (const s of action.runs.steps) expect(s.run ?? '').not.toMatch(/\$\{\{\s*inputs\./);
  });

  test('against the bundled server: conformant, the summary appended, the step passes', async () => {
    const { workspace, summary, codes, outputs } = await runAction({});
    expect(outputs).toEqual({ 'exit-code': '0', verdict: 'conformant' });
    expect(readFileSync(summary, 'utf8')).toContain('Pet Store conformance: Fully conformant');
    expect(existsSync(join(workspace, 'conformance-reports', 'conformance.json'))).toBe(true);
    expect(codes["Fail the step on the suite's exit code"]).toBe(0);
  });

  test('against a broken server: nonconformant, and the step fails with exit code 1', async () => {
    const fault = faults.find((f) => f.name === 'status-not-echoed');
    const server = await referenceServer(fault ? { wrap: fault.wrap } : {});
    servers.push(server);
    const { summary, codes, outputs } = await runAction({
      'base-url': server.baseUrl,
      'api-key': server.apiKey,
      label: 'broken',
      'report-dir': 'out',
    });
    expect(outputs).toEqual({ 'exit-code': '1', verdict: 'nonconformant' });
    expect(readFileSync(summary, 'utf8')).toContain('createPet.status-echo');
    expect(readFileSync(summary, 'utf8')).not.toContain(server.apiKey);
    expect(codes["Fail the step on the suite's exit code"]).toBe(1);
  });
});

describe("the action's install", CHILD_TIMEOUT, () => {
  test("a runner's fresh checkout gets the runtime dependencies and the bundled command line only, and runs the suite", async () => {
    const action = freshCheckout(join(tempDir('action-checkout'), 'action'));
    const { codes, outputs, runnerTemp } = await runAction({}, action);
    expect(codes['Install the suite']).toBe(0);
    expect(outputs).toEqual({ 'exit-code': '0', verdict: 'conformant' });

    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { dev?: boolean }>;
    };
    const locked = (dev: boolean) =>
      Object.entries(lock.packages)
        .filter(([path, p]) => /^node_modules\/(@[^/]+\/)?[^/]+$/.test(path) && Boolean(p.dev) === dev)
        .map(([path]) => path.slice('node_modules/'.length));
    const installed = installedPackages(join(action, 'node_modules'));
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(installed).toEqual(expect.arrayContaining(Object.keys(pkg.dependencies)));
    expect(installed.filter((name) => !locked(false).includes(name))).toEqual([]);
    expect(locked(true)).toContain('@sparticuz/chromium'); // the lockfile still says which are the test tools
    // The bin runs the bundle (built from this checkout's files); esbuild stayed in the runner's temporary folder.
    expect(existsSync(join(action, '.build', 'cli', 'cli.mjs'))).toBe(true);
    expect(existsSync(join(runnerTemp, BUILD_TOOLS, 'node_modules', 'esbuild'))).toBe(true);

    // docs/ci.md's figure is this install's (npm run action-install writes it; run it again when this fails).
    const doc = readFileSync(DOCS.file, 'utf8');
    const table = doc.split(DOCS.start)[1]?.split(DOCS.end)[0] ?? '';
    expect(table).toMatch(
      /^\nMeasured by `npm run action-install` \(Node v[\d.]+, \w+ \w+\), \d{4}-\d\d-\d\d, at [0-9a-f]{7,}:\n/,
    );
    expect(table).toMatch(/^\| The install step, wall time .* \| [\d.]+ s \|$/m);
    const documented = /^\| Runtime dependencies, .*\((\d+) packages\) \| ([\d.]+) MB \|$/m.exec(table);
    expect(Number(documented?.[1])).toBe(installed.length);
    expect(Number(documented?.[2]) / (weigh(join(action, 'node_modules')).bytes / 1e6)).toBeCloseTo(1, 1);
  });
});
