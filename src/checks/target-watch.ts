// Whether the target is still there, and still itself: the requests it left without an answer
// lately (what a server that died was doing); since its last answer, the first request that got
// none, why, and how many followed (a run whose last requests all went unanswered lost its
// target); and whether it turned from answering to failing after a write of the suite (it
// accepted a createPet, a body the interface rejects first, and from then on one operation that
// had answered 2xx answered only 5xx). Each is said once, first.
import type { TargetLost, TargetPoisoned } from '../data/generated/report-types.js';
import { validate } from '../data/schemas.js';
import { requestOnly } from '../wire/evidence.js';
import { parseJson } from '../wire/json.js';
import { describeTransportError, isClose } from '../wire/transport.js';
import type { ApiResponse, SentRequest } from '../wire/wire.js';

/** Requests without an answer, in a row to the end of the run, that make a lost target. */
const LOST_AFTER = 3;
/** Requests kept in `unanswered`. */
const KEPT = 20;
/** Dropped requests a lost target's report gives a curl command for: to send what it fell on again. */
const REPRODUCED = 3;

/** A createPet body the interface accepts: a JSON NewPet (anything else must be refused). */
function acceptable(body: string | undefined): boolean {
  try {
    return body !== undefined && validate('NewPet', parseJson(body)).valid;
  } catch {
    return false;
  }
}

const line = (sent: SentRequest) => {
  const { pathname, search } = new URL(sent.url);
  return `${sent.method} ${pathname}${search}`;
};

type Operation = 'listPets' | 'getPet' | 'createPet';

/** The operation a request is, by its method and path (`listPath` the path of listPets, e.g. /v1/pets). */
export function operationOf(method: string, path: string, listPath: string): Operation | undefined {
  if (path === listPath) return method === 'GET' ? 'listPets' : method === 'POST' ? 'createPet' : undefined;
  const rest = path.startsWith(`${listPath}/`) ? path.slice(listPath.length + 1) : undefined;
  return method === 'GET' && rest !== undefined && !rest.includes('/') ? 'getPet' : undefined;
}

export class TargetWatch {
  /** The last requests a dropped connection left unanswered (method, path), newest last. */
  readonly unanswered: string[] = [];
  private lastAnswered: SentRequest | undefined;
  private silence:
    { first: SentRequest; why: string; count: number; dropped: string[]; reproduce: string[] } | undefined;
  /** Answers in order: the createPet bodies accepted (those the interface rejects first), and every operation's status. */
  private seq = 0;
  private readonly accepted: { seq: number; sent: SentRequest; by: string; valid: boolean }[] = [];
  private readonly answers: { seq: number; op: Operation; status: number }[] = [];

  constructor(
    private readonly timeoutMs: number,
    /** The path of listPets, e.g. /v1/pets. */
    private readonly listPath: string,
  ) {}

  /** An answer, to a request the requirement `by` sent. */
  answered(res: ApiResponse, by: string): void {
    this.lastAnswered = res.request;
    this.silence = undefined;
    this.seq++;
    const op = operationOf(res.request.method, new URL(res.request.url).pathname, this.listPath);
    if (op) this.answers.push({ seq: this.seq, op, status: res.status });
    if (op === 'createPet' && res.status === 201)
      this.accepted.push({ seq: this.seq, sent: res.request, by, valid: acceptable(res.request.body) });
  }

  /**
   * The target turned from answering to failing after a write of the suite: the first accepted
   * createPet (a body the interface rejects before a valid one) after which every answer of one
   * operation was a 5xx, where it had answered 2xx before.
   */
  poisoned(): TargetPoisoned | undefined {
    for (const a of [...this.accepted.filter((x) => !x.valid), ...this.accepted.filter((x) => x.valid)])
      for (const op of ['listPets', 'getPet', 'createPet'] as const) {
        const mine = this.answers.filter((l) => l.op === op);
        const before = mine.filter((l) => l.seq < a.seq);
        const after = mine.filter((l) => l.seq > a.seq);
        if (before.some((l) => l.status < 300) && after.length >= LOST_AFTER && after.every((l) => l.status >= 500)) {
          const body = a.sent.body ?? '';
          const shown = body.length > 120 ? `${body.slice(0, 119)}…` : body;
          return {
            accepted: `${line(a.sent)} ${shown}`,
            by: a.by,
            status: after[0]?.status ?? 500,
            lists: after.length,
            ...(op === 'listPets' ? {} : { operation: op }),
            ...(a.valid ? { valid: true } : {}),
          };
        }
      }
    return undefined;
  }

  noAnswer(sent: SentRequest, err: unknown): void {
    this.silence ??= {
      first: sent,
      why: describeTransportError(err, this.timeoutMs),
      count: 0,
      dropped: [],
      reproduce: [],
    };
    this.silence.count++;
    if (!isClose(err)) return;
    if (this.unanswered.push(line(sent)) > KEPT) this.unanswered.shift();
    if (this.silence.dropped.length < 10) this.silence.dropped.push(line(sent));
    if (this.silence.reproduce.length < REPRODUCED) this.silence.reproduce.push(requestOnly(sent).reproduce);
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
      dropped: [...s.dropped],
      ...(s.reproduce.length ? { reproduce: [...s.reproduce] } : {}),
    };
  }
}
