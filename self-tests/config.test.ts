import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { ConfigError, envExample, loadConfig } from '../src/config.js';

const load = (env: Record<string, string>) => loadConfig(env, { dotenv: false });

describe('configuration', () => {
  test('defaults need no variables at all', () => {
    const c = load({});
    expect(c).toMatchObject({ baseUrl: undefined, reportDir: 'reports', timeoutMs: 10_000, strict: false, maxCreates: 300 });
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

  test('.env.example documents every setting (regenerate from SETTINGS when this fails)', () => {
    expect(readFileSync(new URL('../.env.example', import.meta.url), 'utf8')).toBe(envExample());
  });
});
