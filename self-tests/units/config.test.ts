import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test, vi } from 'vitest';
import { ConfigError, envExample, loadConfig, loadSetting, proxyEnv } from '../../src/config/config.js';
import { conformanceReporters } from '../../src/report/index.js';

const load = (env: Record<string, string>) => loadConfig(env, { dotenv: false });

describe('configuration', () => {
  test('defaults need no variables at all', () => {
    const c = load({});
    expect(c).toMatchObject({
      baseUrl: undefined,
      reportDir: 'reports',
      timeoutMs: 10_000,
      strict: false,
      maxCreates: 300,
    });
    expect(Object.isFrozen(c)).toBe(true);
  });

  test('a base URL and key are read, trailing slashes dropped', () => {
    const c = load({ PETSTORE_BASE_URL: 'https://staging.example.com/v1/', PETSTORE_API_KEY: 'k' });
    expect(c.baseUrl).toBe('https://staging.example.com/v1');
  });

  test.each([
    ['a malformed URL', { PETSTORE_BASE_URL: 'not a url', PETSTORE_API_KEY: 'k' }, 'PETSTORE_BASE_URL'],
    ['a non-http scheme', { PETSTORE_BASE_URL: 'ftp://example.com/v1', PETSTORE_API_KEY: 'k' }, 'PETSTORE_BASE_URL'],
    ['a base URL without a key', { PETSTORE_BASE_URL: 'https://example.com/v1' }, 'PETSTORE_API_KEY'],
    ['a non-numeric timeout', { PETSTORE_TIMEOUT_MS: 'soon' }, 'PETSTORE_TIMEOUT_MS'],
    ['a zero timeout', { PETSTORE_TIMEOUT_MS: '0' }, 'PETSTORE_TIMEOUT_MS'],
    ['a bad boolean', { PETSTORE_STRICT: 'maybe' }, 'PETSTORE_STRICT'],
    ['a bad date', { PETSTORE_NOW: 'yesterday-ish' }, 'PETSTORE_NOW'],
  ])('%s is rejected naming %s', (_what, env, variable) => {
    expect(() => load(env)).toThrow(ConfigError);
    expect(() => load(env)).toThrow(new RegExp(`^${variable}: `));
  });

  test.each([
    ['unset', false, undefined],
    ['empty', false, ''],
    ['0', true, '0'],
    ['white space alone', true, ' '],
    ['1', true, '1'],
  ])('NO_COLOR %s: colour off is %s (any non-empty value turns it off)', (_what, off, value) => {
    expect(load(value === undefined ? {} : { NO_COLOR: value }).noColor).toBe(off);
  });

  test('GITHUB_STEP_SUMMARY is read like the other settings', () => {
    expect(load({}).stepSummary).toBeUndefined();
    expect(load({ GITHUB_STEP_SUMMARY: '/tmp/summary.md' }).stepSummary).toBe('/tmp/summary.md');
  });

  test('one setting alone is read without the others (a bad one elsewhere does not stop it)', () => {
    const env = { GITHUB_STEP_SUMMARY: '/tmp/s.md', PETSTORE_TIMEOUT_MS: 'soon' };
    expect(loadSetting('stepSummary', env, { dotenv: false })).toBe('/tmp/s.md');
    expect(() => load(env)).toThrow(ConfigError);
  });

  test('NO_COLOR and GITHUB_STEP_SUMMARY reach the reporters through the config, not the process environment', () => {
    vi.stubEnv('NO_COLOR', '');
    vi.stubEnv('GITHUB_STEP_SUMMARY', '');
    const tty = Object.getOwnPropertyDescriptor(process.stdout, 'isTTY');
    Object.defineProperty(process.stdout, 'isTTY', { value: true, configurable: true });
    try {
      const options = (config: Record<string, string>) =>
        (
          conformanceReporters(load(config))[0] as unknown as {
            options: { color: boolean; stepSummary?: string; print: boolean };
          }
        ).options;
      expect(options({})).toEqual({ color: true, stepSummary: undefined, print: true });
      expect(options({ NO_COLOR: '1', GITHUB_STEP_SUMMARY: '/tmp/summary.md' })).toEqual({
        color: false,
        stepSummary: '/tmp/summary.md',
        print: true,
      });
      // --reporter ndjson: stdout is the events' alone.
      expect(options({ PETSTORE_REPORTER: 'ndjson' })).toMatchObject({ print: false });
    } finally {
      if (tty) Object.defineProperty(process.stdout, 'isTTY', tty);
      else delete (process.stdout as { isTTY?: boolean }).isTTY;
      vi.unstubAllEnvs();
    }
  });

  test('the proxy variables are handed on as the environment has them, and nothing else', () => {
    const env = { HTTP_PROXY: 'http://p:3128', https_proxy: 'http://q:3128', NO_PROXY: 'x', PETSTORE_API_KEY: 'k' };
    expect(proxyEnv(env)).toEqual({ HTTP_PROXY: 'http://p:3128', https_proxy: 'http://q:3128' });
  });

  test('configuration is read only in src/config/config.ts: no other source file reads process.env (the CLI entry passes it on)', () => {
    const src = join(import.meta.dirname, '../../src');
    const readers = (readdirSync(src, { recursive: true }) as string[])
      .filter((f) => f.endsWith('.ts') && f !== join('config', 'config.ts'))
      .flatMap((f) =>
        readFileSync(join(src, f), 'utf8')
          .split('\n')
          .map((line, i) => ({ at: `src/${f}:${i + 1}`, line })),
      )
      // The one exception: the CLI entry's default for its environment parameter.
      .filter(({ line }) => line.includes('process.env') && !/function main\(.*= process\.env\)/.test(line));
    expect(readers.map((r) => `${r.at}: ${r.line.trim()}`)).toEqual([]);
  });

  test('.env.example documents every setting (regenerate from SETTINGS when this fails)', () => {
    expect(readFileSync(new URL('../../.env.example', import.meta.url), 'utf8')).toBe(envExample());
  });
});
