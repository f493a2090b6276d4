// The command line as a user meets it, through the real bin in child processes (run
// concurrently): --help, --version, --list, where each setting comes from (flag > environment >
// .env, for every setting), and bad usage: one line, exit 2, nothing sent.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { EXIT } from '../../src/commands/cli.js';
import { SETTINGS } from '../../src/config/config.js';
import { catalogue } from '../../tests/catalogue.js';
import { CHILD_TIMEOUT, referenceServer, runBin, targetEnv, tempDir, type TestServer } from '../net-kit.js';

type Key = keyof typeof SETTINGS;
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

const servers: TestServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

describe('--help', CHILD_TIMEOUT, () => {
  test('names every flag with its variable, every exit code, and how to reach a real target', async () => {
    // A broken environment must not stand between a user and the help.
    const { code, stdout } = await runBin(['--help'], { env: { PETSTORE_TIMEOUT_MS: 'soon' } });
    expect(code).toBe(EXIT.conformant);
    for (const s of Object.values(SETTINGS) as { env: string; flag?: string; default: unknown }[]) {
      if (s.flag) expect(stdout).toContain(typeof s.default === 'boolean' ? s.flag.replace('--', '--[no-]') : s.flag);
      expect(stdout).toContain(s.env);
    }
    for (const flag of ['--list', '--show-config', '--version', '--help']) expect(stdout).toContain(flag);
    for (const [code, meaning] of [
      [0, 'conformant'],
      [1, 'MUST requirement failed'],
      [2, 'bad usage or configuration'],
      [3, 'not tested: before any check'],
    ] as const) {
      expect(stdout).toMatch(new RegExp(`^  ${code}  .*${meaning}`, 'm'));
    }
    for (const word of [
      'DNS',
      'refused',
      'TLS',
      'timeout',
      'HTTP_PROXY',
      'HTTPS_PROXY',
      'NO_PROXY',
      'NODE_EXTRA_CA_CERTS',
      'Location',
      '.env',
      'pcs-',
    ]) {
      expect(stdout).toContain(word);
    }
    expect(stdout).toContain('never accepted on the command line');
    expect(Math.max(...stdout.split('\n').map((l) => l.length))).toBeLessThanOrEqual(100);
  });

  test('-h is --help', async () => {
    const [short, long] = await Promise.all([runBin(['-h']), runBin(['--help'])]);
    expect(short.code).toBe(0);
    expect(short.stdout).toBe(long.stdout);
  });
});

test('--version prints the suite and interface versions', async () => {
  const { code, stdout } = await runBin(['--version']);
  expect(code).toBe(EXIT.conformant);
  expect(stdout).toMatch(
    new RegExp(`^petstore-conformance ${pkg.version.replace(/\./g, '\\.')} \\(Pet Store Service Interface 1\\.0\\.0`),
  );
});

describe('--list', CHILD_TIMEOUT, () => {
  const row = (r: (typeof catalogue)[number]) =>
    new RegExp(
      `^${r.id.replace(/\./g, '\\.')} +${r.level} +${r.section.replace(/[()]/g, '\\$&')} +${r.statement.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`,
      'm',
    );

  test('prints every requirement: id, level, section, statement', async () => {
    const { code, stdout } = await runBin(['--list']);
    expect(code).toBe(EXIT.conformant);
    for (const r of catalogue) expect(stdout).toMatch(row(r));
    expect(stdout).toContain(`${catalogue.length} requirements`);
  });

  test('with --only and --skip, just the selection', async () => {
    const { code, stdout } = await runBin(['--list', '--only', 'auth', '--skip', 'auth.challenge*']);
    expect(code).toBe(EXIT.conformant);
    const expected = catalogue.filter((r) => r.id.startsWith('auth.') && !r.id.startsWith('auth.challenge'));
    expect(expected.length).toBeGreaterThan(0);
    for (const r of catalogue) {
      if (expected.includes(r)) expect(stdout).toMatch(row(r));
      else expect(stdout).not.toMatch(new RegExp(`^${r.id.replace(/\./g, '\\.')} `, 'm'));
    }
  });
});

describe(
  'where each setting comes from: a flag wins over the environment, the environment over .env',
  CHILD_TIMEOUT,
  () => {
    /**
     * For every setting: what .env, the environment and a flag say, and how --show-config shows each.
     * A setting without a flag (a convention of the surroundings) keeps the environment's value.
     */
    const samples: Record<Key, [dotenv: string, env: string, flag: string[], shown: [string, string, string]]> = {
      baseUrl: [
        'http://dotenv.test/v1',
        'http://env.test/v1',
        ['--base-url', 'http://flag.test/v1'],
        ['http://dotenv.test/v1', 'http://env.test/v1', 'http://flag.test/v1'],
      ],
      apiKey: [
        'dotenv-key',
        'env-key',
        ['--api-key-env', 'OTHER_KEY'],
        ['(set; never shown)', '(set; never shown)', '(set; never shown)'],
      ],
      reportDir: [
        'dotenv-reports',
        'env-reports',
        ['--report-dir', 'flag-reports'],
        ['dotenv-reports', 'env-reports', 'flag-reports'],
      ],
      timeoutMs: ['1111', '2222', ['--timeout', '3333'], ['1111', '2222', '3333']],
      strict: ['1', '0', ['--strict'], ['on', 'off', 'on']],
      baselineStrict: ['0', '1', ['--no-baseline-strict'], ['off', 'on', 'off']],
      verbose: ['0', '1', ['--no-verbose'], ['off', 'on', 'off']],
      reporter: ['ndjson', 'summary', ['--reporter', 'ndjson'], ['ndjson', 'summary', 'ndjson']],
      readOnly: ['0', '1', ['--no-read-only'], ['off', 'on', 'off']],
      maxCreates: ['11', '22', ['--max-creates', '33'], ['11', '22', '33']],
      seed: ['-5', '6', ['--seed=-7'], ['-5', '6', '-7']],
      runs: ['1', '2', ['--runs', '3'], ['1', '2', '3']],
      soakMs: ['1s', '2m', ['--soak', '1.5h'], ['1000', '120000', '5400000']],
      concurrency: ['4', '5', ['--concurrency', '6'], ['4', '5', '6']],
      now: [
        '2031-01-01',
        '2032-02-02',
        ['--now', '2033-03-03'],
        ['2031-01-01T00:00:00.000Z', '2032-02-02T00:00:00.000Z', '2033-03-03T00:00:00.000Z'],
      ],
      retries: ['0', '1', ['--retries', '2'], ['0', '1', '2']],
      rate: ['5', '10/s', ['--rate', '600/m'], ['5', '10', '10']],
      only: ['auth', 'listPets', ['--only', 'getPet', '--only', 'errors'], ['auth', 'listPets', 'getPet,errors']],
      skip: [
        'auth.challenge',
        'listPets.ok',
        ['--skip', 'getPet.removal'],
        ['auth.challenge', 'listPets.ok', 'getPet.removal'],
      ],
      label: ['dotenv-label', 'env-label', ['--label', 'flag label'], ['dotenv-label', 'env-label', 'flag label']],
      requirementSet: [
        '1.0.0+2026.11.21',
        '1.0.0+2026.11.24',
        ['--requirement-set', '1.0.0+2026.11.26'],
        ['1.0.0+2026.11.21', '1.0.0+2026.11.24', '1.0.0+2026.11.26'],
      ],
      baseline: [
        'dotenv-known.json',
        'env-known.json',
        ['--baseline', 'flag-known.json'],
        ['dotenv-known.json', 'env-known.json', 'flag-known.json'],
      ],
      har: ['dotenv.har', 'env.har', ['--har', 'flag.har'], ['dotenv.har', 'env.har', 'flag.har']],
      start: [
        'npm run dotenv',
        'npm run env',
        ['--start', 'npm run flag'],
        ['npm run dotenv', 'npm run env', 'npm run flag'],
      ],
      startTimeoutMs: ['1000', '2000', ['--start-timeout', '3000'], ['1000', '2000', '3000']],
      noColor: ['yes', '0', [], ['on', 'on', 'on']], // any non-empty value, 0 too
      stepSummary: [
        'dotenv-summary.md',
        'env-summary.md',
        [],
        ['dotenv-summary.md', 'env-summary.md', 'env-summary.md'],
      ],
    };

    test('the samples cover every setting', () => {
      expect(Object.keys(samples).sort()).toEqual(Object.keys(SETTINGS).sort());
    });

    const showConfig = async (layers: { dotenv?: boolean; env?: boolean; flags?: boolean }) => {
      const cwd = tempDir('precedence');
      const entries = Object.entries(samples) as [Key, (typeof samples)[Key]][];
      if (layers.dotenv)
        writeFileSync(join(cwd, '.env'), entries.map(([k, [v]]) => `${SETTINGS[k].env}=${v}`).join('\n'));
      // runBin sets NO_COLOR for every child; here it is one of the samples (undefined: unset).
      const env: Record<string, string | undefined> = { OTHER_KEY: 'flag-key', NO_COLOR: undefined };
      if (layers.env) for (const [k, [, v]] of entries) env[SETTINGS[k].env] = v;
      const args = layers.flags ? entries.flatMap(([, [, , flag]]) => flag) : [];
      const run = await runBin(['--show-config', ...args], { cwd, env });
      expect(run.code, run.out).toBe(EXIT.conformant);
      const rows = new Map(run.stdout.split('\n').map((l) => [l.split(/\s+/)[0], l] as const));
      return { rows, run };
    };

    test.concurrent.each([
      ['.env alone', { dotenv: true }, 0, '.env'],
      ['the environment over .env', { dotenv: true, env: true }, 1, 'environment'],
      ['flags over both', { dotenv: true, env: true, flags: true }, 2, 'flag'],
    ] as const)('%s', async (_what, layers, index, from) => {
      const { rows, run } = await showConfig(layers);
      for (const [key, [, , flag, shown]] of Object.entries(samples) as [Key, (typeof samples)[Key]][]) {
        const s: { env: string; flag?: string } = SETTINGS[key];
        const line = rows.get(s.env) ?? '';
        const source =
          from !== 'flag'
            ? from
            : s.flag === undefined
              ? 'environment'
              : key === 'apiKey'
                ? `${s.flag} OTHER_KEY`
                : s.flag;
        expect(line, `${s.env} in:\n${run.stdout}`).toMatch(
          new RegExp(`^${s.env} +${s.flag ?? '-'} +${shown[index].replace(/[()+.]/g, '\\$&')} +${source}$`),
        );
        expect(flag[0]?.replace(/=.*/, '').replace('--no-', '--')).toBe(s.flag);
      }
      for (const secret of ['dotenv-key', 'env-key', 'flag-key']) expect(run.out).not.toContain(secret);
    });

    test('without anything set, every setting shows its default', async () => {
      const { rows } = await showConfig({});
      for (const s of Object.values(SETTINGS)) expect(rows.get(s.env)).toMatch(/ default$/);
    });
  },
);

describe('bad usage stops before anything is sent: one line naming the flag or variable, exit 2', CHILD_TIMEOUT, () => {
  const cases: [what: string, args: string[], env: Record<string, string>, says: RegExp][] = [
    [
      'an unknown flag, with the nearest one suggested',
      ['--base-ur', 'x'],
      {},
      /unknown option --base-ur; did you mean --base-url\?/,
    ],
    ['an unknown short flag', ['-x'], {}, /unknown option -x/],
    [
      'a stray argument, not echoed (it may be a pasted key)',
      ['sk_live_pasted'],
      {},
      /^petstore-conformance: unexpected argument: options start with --(?![\s\S]*sk_live_pasted)/,
    ],
    ['a flag without its value', ['--seed'], {}, /--seed needs a value/],
    [
      'a value that looks like a flag',
      ['--seed', '-5'],
      {},
      /--seed needs a value; for a value starting with "-" write --seed=VALUE/,
    ],
    ['a value given to a switch', ['--strict=1'], {}, /--strict takes no value/],
    ['a negated command', ['--no-list'], {}, /unknown option --no-list/],
    [
      'a malformed --base-url',
      ['--base-url', 'ftp://example.com/v1'],
      { PETSTORE_API_KEY: 'k' },
      /--base-url: must use http or https/,
    ],
    [
      '--base-url without a key',
      ['--base-url', 'http://127.0.0.1:9/v1'],
      {},
      /PETSTORE_API_KEY: must be set when PETSTORE_BASE_URL is set/,
    ],
    ['a non-numeric --timeout', ['--timeout', 'soon'], {}, /--timeout: expected a whole number/],
    ['a zero --timeout', ['--timeout', '0'], {}, /--timeout: expected a number from 1/],
    ['a negative --max-creates', ['--max-creates=-1'], {}, /--max-creates: expected a number from 0/],
    ['a --seed beyond 32 bits', ['--seed', '99999999999'], {}, /--seed: expected a number from/],
    ['--runs 0', ['--runs', '0'], {}, /--runs: expected a number from 1/],
    ['--concurrency 999', ['--concurrency', '999'], {}, /--concurrency: expected a number from 1 to 256/],
    ['a --now that is no date', ['--now', 'yesterday-ish'], {}, /--now: expected an ISO 8601 date/],
    ['--retries 11', ['--retries', '11'], {}, /--retries: expected a number from 0 to 10/],
    ['an --only naming nothing', ['--only', 'listPet'], {}, /--only: "listPet" matches no requirement id or area/],
    ['a --skip naming nothing', ['--skip', 'auth.nope'], {}, /--skip: "auth.nope" matches no requirement id or area/],
    ['--only and --skip leaving nothing', ['--only', 'auth', '--skip', 'auth'], {}, /leave no requirement to run/],
    [
      'a bad variable in the environment',
      [],
      { PETSTORE_TIMEOUT_MS: 'soon' },
      /PETSTORE_TIMEOUT_MS: expected a whole number/,
    ],
    [
      'a bad PETSTORE_ONLY',
      [],
      { PETSTORE_ONLY: 'nothing.here' },
      /PETSTORE_ONLY: "nothing.here" matches no requirement/,
    ],
    [
      'the key itself on the command line',
      ['--api-key', 'sk-live-123'],
      {},
      /--api-key: the API key is never taken on the command line/,
    ],
    [
      '--api-key-env naming an unset variable',
      ['--api-key-env', 'NOT_SET_ANYWHERE'],
      {},
      /--api-key-env: the variable it names is not set or empty/,
    ],
  ];

  test.concurrent.each(cases)('%s', async (_what, args, env, says) => {
    const { code, stdout, stderr } = await runBin(args, { env });
    expect(code, stderr).toBe(EXIT.usage);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n'), stderr).toHaveLength(1);
    expect(stderr).toMatch(/^petstore-conformance: /);
    expect(stderr).toMatch(says);
  });

  test.concurrent('a key passed to --api-key-env by mistake is refused without being echoed', async () => {
    const key = 'sk-live.Zq9w-8f7e';
    const { code, stderr } = await runBin(['--api-key-env', key]);
    expect(code).toBe(EXIT.usage);
    expect(stderr).toMatch(/takes the NAME of an environment variable/);
    expect(stderr).not.toContain(key);
  });

  test.concurrent('with a real target configured, a bad flag sends no request at all', async () => {
    const server = await referenceServer();
    servers.push(server);
    const { code } = await runBin(['--concurrency', 'many'], { env: targetEnv(server) });
    expect(code).toBe(EXIT.usage);
    expect(server.traffic.methods).toEqual({});
  });
});
