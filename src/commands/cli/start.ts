// --start CMD: the suite runs the server under test. The command runs through the shell in a
// process group of its own; the run waits until the base URL accepts connections, and the whole
// group is stopped after it (SIGTERM, then SIGKILL), on Ctrl-C and on any error too. What it
// prints goes to server.log in the report folder, the key redacted.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RunServer } from '../../report/results.js';
import { redact } from '../../wire/redact.js';

export const SERVER_LOG = 'server.log';
/** How long the group has to go after SIGTERM before it is killed. */
export const STOP_GRACE_MS = 5_000;
/** Lines of its output kept for a message. */
const LAST_LINES = 20;
const POLL_MS = 100;

/** The command could not be brought up: exit 3, with the reason in one message. */
export class StartError extends Error {
  override name = 'StartError';
}

export class StartedServer {
  private readonly lines: string[] = [];
  private partial = '';
  private exit: { code: number | null; signal: string | null } | undefined;
  private readonly exited: Promise<void>;
  /** Set by the run: how the server ended while the checks ran, with what was sent just before. */
  duringRun: RunServer['exited'];

  private constructor(
    readonly command: string,
    private readonly child: ChildProcess,
    private readonly log: WriteStream,
  ) {
    const take = (chunk: Buffer) => this.take(chunk.toString('utf8'));
    child.stdout?.on('data', take);
    child.stderr?.on('data', take);
    this.exited = new Promise((resolve) =>
      child.on('exit', (code, signal) => {
        this.exit = { code, signal };
        resolve();
      }),
    );
    // Should the suite exit without stop() (a second Ctrl-C), the group goes with it.
    process.on('exit', this.killNow);
  }

  /** Starts `command` and resolves once `baseUrl` accepts connections; StartError if it exits first or the wait runs out. */
  static async start(
    command: string,
    {
      baseUrl,
      timeoutMs,
      reportDir,
      env,
      interrupted,
    }: {
      baseUrl: string;
      timeoutMs: number;
      reportDir: string;
      env: NodeJS.ProcessEnv;
      /** Ctrl-C while waiting: the group is stopped and StartError says so. */
      interrupted: () => boolean;
    },
  ): Promise<StartedServer> {
    mkdirSync(reportDir, { recursive: true });
    const log = createWriteStream(join(reportDir, SERVER_LOG));
    const child = spawn('/bin/sh', ['-c', command], { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env });
    const server = new StartedServer(command, child, log);
    const url = new URL(baseUrl);
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      if (interrupted()) {
        await server.stop();
        throw new StartError(`--start: interrupted while waiting for \`${command}\` to accept connections`);
      }
      if (server.exit) {
        await server.stop();
        throw new StartError(
          `--start: \`${command}\` exited (${server.how()}) before ${url.host} accepted connections${server.tail()}`,
        );
      }
      if (await accepts(url.hostname, port)) return server;
      if (performance.now() > deadline) {
        await server.stop();
        throw new StartError(
          `--start: ${url.host} accepted no connection within ${timeoutMs} ms of starting \`${command}\` (--start-timeout)${server.tail()}`,
        );
      }
      await sleep(POLL_MS);
    }
  }

  /** Exited (with code or signal), or undefined while it runs. */
  get ended(): { code: number | null; signal: string | null } | undefined {
    return this.exit;
  }

  /** Its last lines, redacted. */
  lastLines(): string[] {
    return [...this.lines, ...(this.partial ? [redact(this.partial)] : [])].slice(-LAST_LINES);
  }

  /** What the reports record: the command, where its output is, and how it ended during the run. */
  record(): RunServer {
    return { command: redact(this.command), log: SERVER_LOG, ...(this.duringRun ? { exited: this.duringRun } : {}) };
  }

  /** Calls `fn` once, when the command exits. */
  onExit(fn: () => void): void {
    void this.exited.then(fn);
  }

  /** Stops the whole group: SIGTERM, then SIGKILL after STOP_GRACE_MS; resolves once it is gone. */
  async stop(): Promise<void> {
    process.off('exit', this.killNow);
    this.signalGroup('SIGTERM');
    const until = performance.now() + STOP_GRACE_MS;
    while (this.groupAlive() && performance.now() < until) await sleep(POLL_MS);
    if (this.groupAlive()) this.signalGroup('SIGKILL');
    // Killed processes not yet reaped still answer kill(0): a bounded wait for them.
    for (let i = 0; i < 20 && this.groupAlive(); i++) await sleep(POLL_MS);
    await new Promise<void>((resolve) => this.log.end(resolve));
  }

  /** "code 1" or "signal SIGKILL". */
  how(): string {
    return this.exit?.signal ? `signal ${this.exit.signal}` : `code ${this.exit?.code ?? '?'}`;
  }

  private tail(): string {
    const lines = this.lastLines();
    return lines.length ? `; its last lines:\n${lines.map((l) => `  ${l}`).join('\n')}` : '; it printed nothing';
  }

  private take(text: string): void {
    const parts = (this.partial + text).split('\n');
    this.partial = parts.pop() ?? '';
    for (const line of parts) {
      const clean = redact(line);
      this.log.write(`${clean}\n`);
      this.lines.push(clean);
    }
    if (this.lines.length > LAST_LINES) this.lines.splice(0, this.lines.length - LAST_LINES);
  }

  private readonly killNow = (): void => this.signalGroup('SIGKILL');

  private signalGroup(signal: NodeJS.Signals): void {
    try {
      if (this.child.pid) process.kill(-this.child.pid, signal);
    } catch {
      // the group is gone already
    }
  }

  private groupAlive(): boolean {
    try {
      if (this.child.pid) process.kill(-this.child.pid, 0);
      return this.child.pid !== undefined;
    } catch {
      return false;
    }
  }
}

/** Does host:port accept a TCP connection now? */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: host.replace(/^\[|\]$/g, ''), port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
