// Whether the target is still there: the requests it left without an answer lately (what a server
// that died was doing), and, since its last answer, the first request that got none, why, and how
// many followed. A run whose last requests all went unanswered lost its target: said once.
import type { TargetLost } from '../data/generated/report-types.js';
import { describeTransportError, isClose } from '../wire/transport.js';
import type { ApiResponse, SentRequest } from '../wire/wire.js';

/** Requests without an answer, in a row to the end of the run, that make a lost target. */
const LOST_AFTER = 3;
/** Requests kept in `unanswered`. */
const KEPT = 20;

const line = (sent: SentRequest) => {
  const { pathname, search } = new URL(sent.url);
  return `${sent.method} ${pathname}${search}`;
};

export class TargetWatch {
  /** The last requests a dropped connection left unanswered (method, path), newest last. */
  readonly unanswered: string[] = [];
  private lastAnswered: SentRequest | undefined;
  private silence: { first: SentRequest; why: string; count: number } | undefined;

  constructor(private readonly timeoutMs: number) {}

  answered(res: ApiResponse): void {
    this.lastAnswered = res.request;
    this.silence = undefined;
  }

  noAnswer(sent: SentRequest, err: unknown): void {
    this.silence ??= { first: sent, why: describeTransportError(err, this.timeoutMs), count: 0 };
    this.silence.count++;
    if (isClose(err) && this.unanswered.push(line(sent)) > KEPT) this.unanswered.shift();
  }

  /** The target stopped answering: every request since `from` went unanswered, to the end. */
  lost(): TargetLost | undefined {
    const s = this.silence;
    if (!s || s.count < LOST_AFTER) return undefined;
    return {
      from: line(s.first),
      why: s.why,
      requests: s.count,
      lastAnswered: this.lastAnswered ? line(this.lastAnswered) : null,
    };
  }
}
