// The README's promise, end to end: the real command against the embedded server, against the
// standalone `npm run serve`, and with bad configuration.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = fileURLToPath(new URL('../bin/petstore-conformance.js', import.meta.url));

/** Environment without any PETSTORE_ variable of the caller's. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PETSTORE_') && !k.startsWith('VITEST')));
  return { ...env, NO_COLOR: '1', ...extra };
}

export function runCli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: root, env: cleanEnv(env) });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code, out }));
  });
}

const children: ChildProcess[] = [];
afterAll(() => children.forEach((c) => c.kill()));

describe('npm run conformance', () => {
  test('passes against the embedded reference server and says what it ran against', async () => {
    const { code, out } = await runCli([]);
    expect(out).toContain('testing the bundled reference server');
    expect(code, out).toBe(0);
  });

  test('passes against the standalone `npm run serve` server', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/reference-server/main.ts'], { cwd: root, env: cleanEnv() });
    children.push(child);
    const banner = await new Promise<string>((resolve) => {
      let text = '';
      child.stdout.on('data', (d) => {
        text += d;
        if (text.includes('PETSTORE_API_KEY=')) resolve(text);
      });
    });
    const baseUrl = /PETSTORE_BASE_URL=(\S+)/.exec(banner)?.[1] ?? '';
    const apiKey = /PETSTORE_API_KEY=(\S+)/.exec(banner)?.[1] ?? '';
    const { code, out } = await runCli([], { PETSTORE_BASE_URL: baseUrl, PETSTORE_API_KEY: apiKey });
    expect(out).toContain(`testing ${baseUrl}`);
    expect(out).not.toContain(apiKey);
    expect(code, out).toBe(0);
  });

  test.each([
    ['a malformed base URL', { PETSTORE_BASE_URL: 'htp//nowhere', PETSTORE_API_KEY: 'k' }, 'PETSTORE_BASE_URL'],
    ['a base URL without a key', { PETSTORE_BASE_URL: 'http://127.0.0.1:9/v1' }, 'PETSTORE_API_KEY'],
    ['a non-numeric timeout', { PETSTORE_TIMEOUT_MS: 'ten' }, 'PETSTORE_TIMEOUT_MS'],
  ])('%s stops the run with one line and exit 2', async (_what, env, variable) => {
    const { code, out } = await runCli([], env);
    expect(code).toBe(2);
    expect(out.trim().split('\n')).toHaveLength(1);
    expect(out).toContain(variable);
  });
});
