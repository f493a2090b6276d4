// --start CMD: the suite starts the server under test through the shell, waits for its port, runs,
// and stops the whole process group, whatever the server does: listen and serve, never listen,
// die during the run, or ignore SIGTERM. Its output lands in server.log, the key redacted.
import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { EXIT } from '../../src/commands/cli.js';
import { CHILD_TIMEOUT, closedPort, root, runBin, startBin, type BinRun } from '../net-kit.js';

const KEY = 'start-test-key-4f1c';
const script = fileURLToPath(new URL('start-server.ts', import.meta.url));
/** The shell command: node with tsx's loader by path, as the run's folder has no node_modules. */
const server = (port: number, extra = '') =>
  `node --import ${JSON.stringify(join(root, 'node_modules/tsx/dist/loader.mjs'))} ${JSON.stringify(script)} --port ${port} --key ${KEY} ${extra}`;

async function runWith(
  extra: string | ((port: number) => string),
  args: string[] = [],
): Promise<BinRun & { port: number }> {
  const port = await closedPort();
  const command = typeof extra === 'string' ? server(port, extra) : extra(port);
  const run = await runBin(['--start', command, '--base-url', `http://127.0.0.1:${port}/v1`, '--runs', '1', ...args], {
    env: { PETSTORE_API_KEY: KEY },
  });
  return { ...run, port };
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = connect({ host: '127.0.0.1', port });
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });

const report = (run: BinRun) =>
  JSON.parse(readFileSync(join(run.cwd, 'reports', 'conformance.json'), 'utf8')) as {
    verdict: string;
    run: {
      server?: {
        command: string;
        log: string;
        exited?: { code: number | null; unanswered: string[]; lastLines: string[] };
      };
    };
  };

describe.concurrent('--start', CHILD_TIMEOUT, () => {
  test('a server that listens: the run passes, then its process group is gone; server.log has its output, redacted', async () => {
    const run = await runWith('');
    expect(run.code, run.out).toBe(EXIT.conformant);
    expect(await accepts(run.port)).toBe(false);
    const log = readFileSync(join(run.cwd, 'reports', 'server.log'), 'utf8');
    expect(log).toContain(`listening on ${run.port}`);
    expect(log).toContain('starting with key $PETSTORE_API_KEY');
    expect(log).not.toContain(KEY);
    expect(report(run).run.server).toEqual({ command: expect.stringContaining('start-server.ts'), log: 'server.log' });
  });

  test('a server that never listens: exit 3 within --start-timeout, naming the command and its last lines', async () => {
    // The shell prints at once: no race between a loaded machine's node start-up and the timeout.
    const run = await runWith(
      () => "echo 'waiting for a database that never comes'; exec sleep 600",
      ['--start-timeout', '1500'],
    );
    expect(run.code, run.out).toBe(EXIT.unreachable);
    expect(run.stderr).toMatch(/--start: 127\.0\.0\.1:\d+ accepted no connection within 1500 ms of starting `echo /);
    expect(run.stderr).toContain('waiting for a database that never comes');
    expect(report(run).verdict).toBe('not-tested');
  });

  test('a server that exits during the run: said at once and in every report, with the request it died on', async () => {
    const run = await runWith('--exit-after 40');
    expect(run.code, run.out).toBe(EXIT.violations);
    expect(run.stderr).toMatch(/the server exited with code 1 during the run; its last lines:/);
    expect(run.stderr).toContain('crashed on');
    const exited = report(run).run.server?.exited;
    expect(exited?.code).toBe(1);
    // The request it died on is among those it left unanswered.
    const diedOn = /crashed on (\S+ \S+):/.exec(exited?.lastLines.join('\n') ?? '')?.[1];
    expect(exited?.unanswered).toContain(diedOn);
    expect(exited?.lastLines.join('\n')).toContain('out of memory (on purpose)');
    expect(run.stdout).toMatch(/! the server under test exited with code 1 during the run, leaving .*unanswered/);
    expect(readFileSync(join(run.cwd, 'reports', 'conformance.md'), 'utf8')).toContain(
      'exited with code 1 during the run',
    );
  });

  test('a server that ignores SIGTERM: killed after the grace period, the run ends all the same', async () => {
    const run = await runWith('--ignore-term', ['--only', 'service']);
    expect(run.code, run.out).toBe(EXIT.conformant);
    expect(await accepts(run.port)).toBe(false);
    expect(readFileSync(join(run.cwd, 'reports', 'server.log'), 'utf8')).toContain('SIGTERM ignored');
  });

  test('Ctrl-C during the run: exit 130, and the started server is stopped all the same', async () => {
    const port = await closedPort();
    const started = startBin(['--start', server(port, '--slow-ms 300'), '--base-url', `http://127.0.0.1:${port}/v1`], {
      env: { PETSTORE_API_KEY: KEY },
    });
    await started.waitFor(/testing http/);
    expect(await accepts(port)).toBe(true);
    started.child.kill('SIGINT');
    const run = await started.done;
    expect(run.code, run.out).toBe(130);
    expect(await accepts(port)).toBe(false);
    expect(existsSync(join(run.cwd, 'reports', 'server.log'))).toBe(true);
  });

  test('--start without a base URL: a configuration error, nothing started', async () => {
    const run = await runBin(['--start', "node -e \"require('fs').writeFileSync('started', '')\""]);
    expect(run.code, run.out).toBe(EXIT.usage);
    expect(run.stderr).toMatch(/PETSTORE_START: needs PETSTORE_BASE_URL/);
    expect(existsSync(join(run.cwd, 'started'))).toBe(false);
  });
});
