// What the terminal shows while checks run, instead of vitest's line per test: on a terminal one
// line rewritten in place (how many checks are done, which are running); in a log (CI), a plain
// line every PLAIN_EVERY_MS at most, so the log stays short. The summary follows at the end.
import type { Reporter, TestCase, TestModule } from 'vitest/node';

export const PLAIN_EVERY_MS = 10_000;
const TTY_EVERY_MS = 100;

export interface ProgressOptions {
  stream?: NodeJS.WriteStream;
  /** A terminal (the line is rewritten in place); else plain lines. Defaults to stream.isTTY. */
  tty?: boolean;
  now?: () => number;
}

export class ProgressReporter implements Reporter {
  private readonly stream: NodeJS.WriteStream;
  private readonly tty: boolean;
  private readonly now: () => number;
  private total = 0;
  private done = 0;
  private failed = 0;
  private readonly running = new Set<string>();
  private last = -Infinity;
  private shown = false;

  constructor({ stream = process.stderr, tty = Boolean(stream.isTTY), now = Date.now }: ProgressOptions = {}) {
    this.stream = stream;
    this.tty = tty;
    this.now = now;
  }

  onTestModuleCollected(module: TestModule): void {
    this.total += [...module.children.allTests()].length;
  }

  onTestCaseReady(test: TestCase): void {
    this.running.add(test.name.split(' ')[0] ?? test.name);
    this.show(false);
  }

  onTestCaseResult(test: TestCase): void {
    this.running.delete(test.name.split(' ')[0] ?? test.name);
    this.done++;
    if (test.result().state === 'failed') this.failed++;
    this.show(false);
  }

  /** The suite's own notes (e.g. how requests were paced) pass through; other output of checks does not. */
  onUserConsoleLog(log: { content: string }): void {
    if (!log.content.startsWith('petstore-conformance:')) return;
    this.stream.write(
      `${this.tty && this.shown ? '\r\x1b[2K' : ''}${log.content.endsWith('\n') ? log.content : `${log.content}\n`}`,
    );
  }

  onTestRunEnd(): void {
    this.show(true);
    if (this.tty && this.shown) this.stream.write('\r\x1b[2K');
  }

  /** The progress line: counts first, then the ids still running, cut to the terminal's width. */
  line(): string {
    const ids = [...this.running];
    const width = this.stream.columns || 100;
    const head = ` checks ${this.done}/${this.total || '?'} done${this.failed ? `, ${this.failed} not met` : ''}`;
    if (!ids.length) return head;
    const what = `; running ${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ` and ${ids.length - 3} more` : ''}`;
    const text = `${head}${what}`;
    return this.tty && text.length > width - 1 ? `${text.slice(0, width - 2)}…` : text;
  }

  private show(final: boolean): void {
    const t = this.now();
    if (this.tty) {
      if (final || t - this.last < TTY_EVERY_MS) return;
      this.last = t;
      this.shown = true;
      this.stream.write(`\r\x1b[2K${this.line()}`);
      return;
    }
    // Plain output: a line now and then on long runs, none on a run shorter than the interval.
    if (final || t - this.last < PLAIN_EVERY_MS) return;
    if (this.last === -Infinity) {
      this.last = t;
      return;
    }
    this.last = t;
    this.stream.write(`${this.line()}\n`);
  }
}
