// The GitHub Action (action.yml at the root) runs as a runner would run it: its shell steps in
// order, with GITHUB_* set and its expressions filled in from the inputs, against the bundled
// server and against a broken one. The `uses:` steps (setup-node, upload-artifact) are GitHub's
// own; what is checked of them is that the upload happens whatever the outcome.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { parse } from 'yaml';
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

/** Runs every shell step in order, as a runner would; returns each step's exit code and the outputs. */
async function runAction(inputs: Record<string, string>) {
  const workspace = tempDir('action');
  const summary = join(workspace, 'summary.md');
  const outputs: Record<string, Record<string, string>> = {};
  const given = Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, inputs[k] ?? v.default ?? '']));
  const fill = (text: string) =>
    text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_all, expr: string) => {
      if (expr === 'github.action_path') return root;
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
  return { workspace, summary, codes, outputs: outputs.run ?? {} };
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
    expect(readFileSync(summary, 'utf8')).toContain('Pet Store conformance: Conformant');
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
