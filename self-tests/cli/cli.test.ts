// The README's promise, end to end: the real command against the embedded server, against the
// standalone `npm run serve`, and with bad configuration.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, describe, expect, test } from 'vitest';
import { CHILD_TIMEOUT, cleanEnv, root, runBin } from '../net-kit.js';

const children: ChildProcess[] = [];
afterAll(() => children.forEach((c) => c.kill()));

describe('npm run conformance', CHILD_TIMEOUT, () => {
  test('passes against the embedded reference server and says what it ran against', async () => {
    const { code, out } = await runBin([]);
    expect(out).toContain('testing the bundled reference server');
    expect(code, out).toBe(0);
  });

  test('passes against the standalone `npm run serve` server', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/reference-server/main.ts'], {
      cwd: root,
      env: cleanEnv(),
    });
    children.push(child);
    const banner = await new Promise<string>((resolve, reject) => {
      child.on('exit', (code) => reject(new Error(`npm run serve exited with ${code}`)));
      let text = '';
      child.stdout.on('data', (d) => {
        text += d;
        if (text.includes('PETSTORE_API_KEY=')) resolve(text);
      });
    });
    const baseUrl = /PETSTORE_BASE_URL=(\S+)/.exec(banner)?.[1] ?? '';
    const apiKey = /PETSTORE_API_KEY=(\S+)/.exec(banner)?.[1] ?? '';
    const { code, out } = await runBin([], { env: { PETSTORE_BASE_URL: baseUrl, PETSTORE_API_KEY: apiKey } });
    expect(out).toContain(`testing ${baseUrl}`);
    expect(out).not.toContain(apiKey);
    expect(code, out).toBe(0);
  });

  test.each([
    ['a malformed base URL', { PETSTORE_BASE_URL: 'htp//nowhere', PETSTORE_API_KEY: 'k' }, 'PETSTORE_BASE_URL'],
    ['a base URL without a key', { PETSTORE_BASE_URL: 'http://127.0.0.1:9/v1' }, 'PETSTORE_API_KEY'],
    ['a non-numeric timeout', { PETSTORE_TIMEOUT_MS: 'ten' }, 'PETSTORE_TIMEOUT_MS'],
  ])('%s stops the run with one line and exit 2', async (_what, env, variable) => {
    const { code, out } = await runBin([], { env });
    expect(code).toBe(2);
    expect(out.trim().split('\n')).toHaveLength(1);
    expect(out).toContain(variable);
  });
});
