// What the terminal shows while checks run: on a terminal one line rewritten in place (how many
// checks are done, which are running); in a log (CI), a plain line every PLAIN_EVERY_MS at most,
// so the log stays short; with --verbose, a line per check and every failure in full. The
// summary follows at the end.
import type { CheckInput } from './results.js';

export const PLAIN_EVERY_MS = 10_000;
const TTY_EVERY_MS = 100;

export interface ProgressOptions {
  stream?: NodeJS.WriteStream;
  /** A terminal (the line is rewritten in place); else plain lines. Defaults to stream.isTTY. */
  tty?: boolean;
  now?: () => number;
}

/** What the runner tells the terminal while checks run (see CheckEvents in src/run/runner.ts). */
export interface Progress {
  planned(count: number): void;
  started(name: string): void;
  finished(input: CheckInput, fails: boolean): void;
  /** The suite's own lines (e.g. how requests were paced). */
  note(line: string): void;
  end(): void;
}

export class ProgressLine implements Progress {
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

  planned(count: number): void {
    this.total += count;
  }

  started(name: string): void {
    this.running.add(name.split(' ')[0] ?? name);
    this.show(false);
  }

  finished(input: CheckInput, fails: boolean): void {
    this.running.delete(input.requirement.id);
    this.done++;
    if (fails) this.failed++;
    this.show(false);
  }

  note(line: string): void {
    this.stream.write(`${this.tty && this.shown ? '\r\x1b[2K' : ''}${line}\n`);
  }

  end(): void {
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

/** --verbose: a line per finished check, and every check not met in full with its curl lines. */
export class CheckLines implements Progress {
  constructor(private readonly stream: NodeJS.WriteStream = process.stdout) {}

  planned(): void {}
  started(): void {}

  finished(input: CheckInput, fails: boolean): void {
    const mark = input.outcome === 'passed' ? '✓' : input.outcome === 'skipped' ? '↓' : fails ? '×' : '!';
    const lines = [` ${mark} ${input.name} ${input.durationMs}ms`];
    if (input.outcome === 'failed' || input.outcome === 'error' || input.outcome === 'skipped') {
      const head =
        input.outcome === 'skipped'
          ? 'skipped'
          : fails
            ? `${input.requirement.level} not met`
            : 'SHOULD not met (warning)';
      lines.push(`   ${head}: ${input.message ?? ''}`.replace(/\n/g, '\n   '));
      for (const e of input.evidence) lines.push(`   Reproduce with: ${e.reproduce}`);
    }
    this.stream.write(`${lines.join('\n')}\n`);
  }

  note(line: string): void {
    this.stream.write(`${line}\n`);
  }

  end(): void {}
}
