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
import { urlOf, type ApiResponse, type SentRequest } from '../wire/requests.js';

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

/** The path of listPets under a base URL, e.g. /v1/pets for http://host/v1/. */
export const listPathOf = (baseUrl: string): string => `${new URL(baseUrl).pathname.replace(/\/+$/, '')}/pets`;

/** An exchange as evidence keeps it: its request, and its answer when one came. */
type Kept = { request: Pick<SentRequest, 'method' | 'url'>; response?: { status: number } | null };

/** Whether an exchange is a 5xx answer of the operation the target turned failing on (TargetPoisoned). */
export const answeredOnTurn =
  (p: TargetPoisoned, listPath: string) =>
  (x: Kept): boolean =>
    (x.response?.status ?? 0) >= 500 &&
    operationOf(x.request.method, urlOf(x.request.url).pathname, listPath) === (p.operation ?? 'listPets');

/** The operation a request is, by its method and path (`listPath` the path of listPets, e.g. /v1/pets). */
export function operationOf(method: string, path: string, listPath: string): Operation | undefined {
  if (path === listPath) return method === 'GET' ? 'listPets' : method === 'POST' ? 'createPet' : undefined;
  const rest = path.startsWith(`${listPath}/`) ? path.slice(listPath.length + 1) : undefined;
  return method === 'GET' && rest !== undefined && !rest.includes('/') ? 'getPet' : undefined;
}

/** When a request went on the wire and when its answer had come (performance.now()); see ApiResponse.at. */
type At = ApiResponse['at'];

/**
 * Whether the target turned failing, and whether it was lost, are decided from what the server
 * must have done in order, never from the order answers arrived in (that changes from run to run
 * with requests in flight together): a request sent after an answer had come reached the server
 * after the request answered; requests in flight together are in no known order.
 */
export class TargetWatch {
  /** The last requests a dropped connection left unanswered (method, path), newest last. */
  readonly unanswered: string[] = [];
  /** The requests the target left without an answer: when each was sent, why, and what it was. */
  private readonly silent: { sentAt: number; endedAt: number; sent: SentRequest; why: string; closed: boolean }[] = [];
  /** When the latest answer came (performance.now()). */
  private lastAnswerAt = -Infinity;
  /** When the latest request that got an answer was sent, and that request. */
  private lastAnswered: { sentAt: number; sent: SentRequest } | undefined;
  /** The createPet bodies accepted (201), and every operation's answers. */
  private readonly accepted: { at: At; sent: SentRequest; by: string; valid: boolean }[] = [];
  private readonly answers: { at: At; op: Operation; status: number }[] = [];

  constructor(
    private readonly timeoutMs: number,
    /** The path of listPets, e.g. /v1/pets. */
    private readonly listPath: string,
  ) {}

  /** Whether an exchange is a 5xx answer of the operation the target turned failing on. */
  onTurn(p: TargetPoisoned): (x: Kept) => boolean {
    return answeredOnTurn(p, this.listPath);
  }

  /** The operation a request (as sent, or as evidence writes it) is, if it is one of the interface's. */
  operationOf(request: Pick<SentRequest, 'method' | 'url'>): Operation | undefined {
    return operationOf(request.method, urlOf(request.url).pathname, this.listPath);
  }

  /** An answer, to a request the requirement `by` sent. */
  answered(res: ApiResponse, by: string): void {
    this.lastAnswerAt = Math.max(this.lastAnswerAt, res.at.answered);
    if (!this.lastAnswered || res.at.sent > this.lastAnswered.sentAt)
      this.lastAnswered = { sentAt: res.at.sent, sent: res.request };
    const op = this.operationOf(res.request);
    if (op) this.answers.push({ at: res.at, op, status: res.status });
    if (op === 'createPet' && res.status === 201)
      this.accepted.push({ at: res.at, sent: res.request, by, valid: acceptable(res.request.body) });
  }

  /**
   * The target turned from answering to failing after a write of the suite: an accepted createPet
   * after which every answer of one operation, to a request sent once it was answered, was a 5xx
   * (at least LOST_AFTER of them), where that operation had answered 2xx before it. Of the writes
   * that fit (several may, when requests were in flight together), the one whose requirement
   * failed on that very request (`broke`) first, then a body the interface rejects, then the
   * first sent.
   */
  poisoned(broke: (sent: SentRequest, by: string) => boolean = () => false): TargetPoisoned | undefined {
    // Only an operation with LOST_AFTER 5xx answers can have turned (none, on most runs: no search then).
    const ops = (['listPets', 'getPet', 'createPet'] as const)
      .map((op) => ({ op, mine: this.answers.filter((l) => l.op === op) }))
      .filter(({ mine }) => mine.filter((l) => l.status >= 500).length >= LOST_AFTER);
    if (ops.length === 0) return undefined;
    const cause = new Map(this.accepted.map((a) => [a, broke(a.sent, a.by)]));
    const rank = (a: (typeof this.accepted)[number]) => (cause.get(a) ? 0 : a.valid ? 2 : 1);
    const candidates = [...this.accepted].sort((a, b) => rank(a) - rank(b) || a.at.sent - b.at.sent);
    for (const a of candidates)
      for (const { op, mine } of ops) {
        // The accepted write is a success of createPet itself.
        const before = op === 'createPet' || mine.some((l) => l.at.answered < a.at.sent && l.status < 300);
        const after = mine.filter((l) => l.at.sent > a.at.answered).sort((x, y) => x.at.sent - y.at.sent);
        if (before && after.length >= LOST_AFTER && after.every((l) => l.status >= 500)) {
          const body = a.sent.body ?? '';
          const shown = body.length > 120 ? `${body.slice(0, 119)}…` : body;
          return {
            accepted: `${line(a.sent)} ${shown}`,
            by: a.by,
            status: after[0]?.status ?? 500,
            lists: after.length,
            ...(op === 'listPets' ? {} : { operation: op }),
            ...(a.valid ? { valid: true } : {}),
            ...(cause.get(a) ? { cause: true } : {}),
          };
        }
      }
    return undefined;
  }

  noAnswer(sent: SentRequest, err: unknown, sentAt: number): void {
    const closed = isClose(err);
    this.silent.push({
      sentAt,
      endedAt: performance.now(),
      sent,
      why: describeTransportError(err, this.timeoutMs),
      closed,
    });
    if (closed && this.unanswered.push(line(sent)) > KEPT) this.unanswered.shift();
  }

  /**
   * The target stopped answering: at least LOST_AFTER requests sent after the last one it
   * answered (the latest sent), and none since, got no answer. What it dropped as it stopped: the
   * connections it closed under requests after its last answer came, whenever they were sent,
   * those that had waited longest first. All of them (no more than were in flight at once): the
   * one it fell on need not have waited longest, when requests sent before it were still queued.
   */
  lost(): TargetLost | undefined {
    const since = this.lastAnswered?.sentAt ?? -Infinity;
    const silent = this.silent.filter((s) => s.sentAt > since).sort((a, b) => a.sentAt - b.sentAt);
    const first = silent[0];
    if (!first || silent.length < LOST_AFTER) return undefined;
    // Longest in flight first: the request a server fell on has waited since it arrived.
    const dropped = this.silent
      .filter((s) => s.closed && (s.sentAt > since || s.endedAt >= this.lastAnswerAt))
      .sort((a, b) => b.endedAt - b.sentAt - (a.endedAt - a.sentAt));
    const reproduce = dropped.slice(0, REPRODUCED).map((s) => requestOnly(s.sent).reproduce);
    return {
      from: line(first.sent),
      why: first.why,
      requests: silent.length,
      lastAnswered: this.lastAnswered ? line(this.lastAnswered.sent) : null,
      dropped: dropped.map((s) => line(s.sent)),
      ...(reproduce.length ? { reproduce } : {}),
    };
  }
}
