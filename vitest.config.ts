import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The self-tests that take longest, longest first (and the type check, which overlaps the rest). They start first, so the short files fill the
 * other worker around them; vitest's own order (larger files first on a fresh clone, where it has
 * no durations cached) would start these small files last and leave them alone at the end.
 */
const LONG_POLES = [
  'self-tests/broken-servers/broken-servers.test.ts',
  'self-tests/docs/typecheck.test.ts',
  'self-tests/hostile/hostile-servers.test.ts',
  'self-tests/cli/cli-runs.test.ts',
  'self-tests/cli/reports.test.ts',
];
const rank = (spec: TestSpecification) => {
  const i = LONG_POLES.findIndex((f) => spec.moduleId.endsWith(`/${f}`));
  return i === -1 ? LONG_POLES.length : i;
};
class LongPolesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Within a project only; Array.prototype.sort is stable, so the rest keeps vitest's order.
    const sorted = await super.sort(files);
    const projects = [...new Set(sorted.map((s) => s.project.name))];
    const project = (spec: TestSpecification) => projects.indexOf(spec.project.name);
    return sorted.sort((a, b) => project(a) - project(b) || rank(a) - rank(b));
  }
}

export default defineConfig({
  test: {
    // Transformed modules kept in node_modules/.vitest (keyed by content): a run after the first
    // starts some 0.4 s sooner, and npm test spawns the suite's command line dozens of times.
    experimental: { fsModuleCache: true },
    sequence: { sequencer: LongPolesFirst },
    projects: [
      {
        test: {
          name: 'conformance',
          include: ['tests/**/*.test.ts'],
          globalSetup: ['src/vitest/global-setup.ts'],
          // One worker holds the run (src/vitest/adapter.ts runs every check in one hook, as the
          // command line does; each test then reports its check).
          // Threads start faster than forked processes (some 20 s of processor time over a run);
          // each keeps its own process.env (vi.stubEnv) and no self-test changes directory.
          pool: 'threads',
          maxWorkers: 1,
          // Hang guards, not speed targets: each request has its own timeout (--timeout, up to 10
          // minutes), and a property's cases on a rate-limited staging server (2 req/s) take minutes.
          testTimeout: 3_600_000,
          hookTimeout: 3_600_000,
        },
      },
      {
        test: {
          name: 'self',
          include: ['self-tests/**/*.test.ts'],
          globalSetup: ['self-tests/global-setup.ts'],
          // Files of a worker share their modules (loaded and compiled once, ajv's validators too):
          // some 10 s of processor time. No self-test mocks a module; env stubs are undone by each, and
          // self-tests/setup.ts forgets the keys registered for redaction before each file.
          isolate: false,
          setupFiles: ['self-tests/setup.ts'],
          // Threads start faster than forked processes (some 20 s of processor time over a run);
          // each keeps its own process.env (vi.stubEnv) and no self-test changes directory.
          pool: 'threads',
          // vitest's default in a run is one worker fewer than the cores: on 2 cores, one file at a
          // time. Most self-test files wait on child processes, timeouts and loopback, so 3 at once
          // (each in its own process) keep both cores busy; the long poles go first (LongPolesFirst).
          maxWorkers: 3,
          // Hang guards, at least 5 times the longest a test or hook takes beside two busy loops on
          // a 2-core machine (the tarball's install, a catalogue in a hook). vitest's default for hooks
          // (10 s) would be a speed target for the beforeAll hooks that run a catalogue.
          testTimeout: 600_000,
          hookTimeout: 600_000,
          // expect.poll waits for a child or a socket to get somewhere: 1 s (the default) is a speed target.
          expect: { poll: { timeout: 30_000 } },
        },
      },
    ],
  },
});
