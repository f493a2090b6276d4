// The pace of the client's requests: a 429 or 503 with Retry-After pauses every request, then
// the pace adapts (AIMD) until such answers stop; --rate caps it from the start. A server that
// turns away every request stops being waited for (see Pacer.refusing).
import type { Pacing } from '../data/generated/report-types.js';

/** What the pacing did, for the run's summary and the reports (run.retries.pacing in conformance.json). */
export type { Pacing };

/** Lowest pace the client slows down to, in requests per second. */
const MIN_RATE = 0.5;

/**
 * Paces every request of the client. A 429 or 503 with Retry-After pauses them all until then:
 * the server asked the client, not one request, to wait, and requests that kept firing would
 * only be turned away too. Then the pace adapts, additive increase and multiplicative decrease
 * as TCP does: the first such answer sets it to what the server accepted so far (per second),
 * each later one cuts it by 20% (or to 90% of what the server accepted over a whole second since
 * the last pause, if more). While none comes it grows, by 25% a second while below 75% of the
 * pace last turned away (or of what was accepted), then by 0.5% a second: it stays just below the
 * limit with few pauses (each costs the whole Retry-After). Answers to requests sent before the last cut belong to the
 * same episode and cut nothing. A Retry-After of 0 asks for no wait and slows nothing. Without
 * --rate and before the first such answer, nothing is paced.
 *
 * A server that turns every request away (nothing accepted over as many episodes of 429s as a
 * request has tries, or a request ran out of retries with nothing accepted since it was first
 * sent) is no longer waited for: it is `refusing`, requests go unpaced and are
 * not retried, so a run against it ends in moments instead of crawling at the slowest pace. The
 * first answer it accepts ends that.
 */
export class Pacer {
  private rate: number;
  /** Earliest start of the next request (performance.now). */
  private next = 0;
  private pausedUntil = 0;
  /** The pace when a 429 last came: the limit is below it. */
  private ceiling = Infinity;
  private grownAt = 0;
  private cutAt = -Infinity;
  private readonly accepted = new RateMeter();
  /** Requests waiting for their turn, in order; retries (urgent) are the first `urgentWaiting`. */
  private readonly waiting: { resolve: () => void; reject: (err: Error) => void }[] = [];
  private urgentWaiting = 0;
  /** The one timer that lets the head of the queue go. */
  private timer: NodeJS.Timeout | undefined;
  private firstAt: number | undefined;
  private lastAt = 0;
  private limited = 0;
  private pausedMs = 0;
  private slowest = Infinity;
  private cancelled = false;
  private lastAcceptedAt = -Infinity;
  /** Every request is being turned away: see the class comment. */
  refusing = false;

  /** Episodes of 429s since the last answer accepted. */
  private episodesRefused = 0;

  /** `cap`: --rate; `tries`: how often one request may be turned away (retries + 1). */
  constructor(
    private readonly cap = Infinity,
    private readonly tries = Infinity,
  ) {
    this.rate = cap;
  }

  /**
   * Resolves when the next request may go: at once (synchronously free) while unpaced, else in
   * order, retries (`urgent`) first, one every 1/rate s. Rejects after cancel().
   */
  turn(urgent = false): Promise<void> | void {
    if (this.cancelled) return Promise.reject(new Error('cancelled'));
    const now = performance.now();
    this.firstAt ??= now;
    if (this.refusing || (this.rate === Infinity && now >= this.pausedUntil && this.waiting.length === 0)) return;
    return new Promise<void>((resolve, reject) => {
      if (urgent) this.waiting.splice(this.urgentWaiting++, 0, { resolve, reject });
      else this.waiting.push({ resolve, reject });
      this.release();
    });
  }

  /**
   * Lets waiting requests go while their time has come, then sets the timer for the next. Spaced
   * from the moment the last one actually went, so a timer that fires late (a busy event loop)
   * never lets a burst go.
   */
  private release(): void {
    if (this.timer) return;
    for (let head = this.waiting[0]; head; head = this.waiting[0]) {
      const now = performance.now();
      this.grow(now);
      const at = this.refusing ? 0 : Math.max(this.pausedUntil, this.rate === Infinity ? 0 : this.next);
      if (at > now + 1) {
        this.timer = setTimeout(() => {
          this.timer = undefined;
          this.release();
        }, at - now);
        return;
      }
      this.waiting.shift();
      if (this.urgentWaiting > 0) this.urgentWaiting--;
      if (this.rate !== Infinity) this.next = now + 1000 / this.rate;
      head.resolve();
    }
  }

  private grow(now: number): void {
    // Bounded: an idle client does not come back from a long gap at many times its pace.
    const dt = Math.min(now - this.grownAt, 250) / 1000;
    this.grownAt = now;
    if (dt <= 0 || now < this.pausedUntil || this.rate >= this.cap) return;
    // Far below the pace that was last turned away it climbs back fast; near it, slowly.
    const growth = this.rate < 0.75 * this.ceiling ? 0.25 : 0.005;
    this.rate = Math.min(this.cap, this.rate * (1 + growth * dt));
  }

  /** An answer came to a request sent at `sentAt`: `waitMs` when it was a 429 or 503 with Retry-After. */
  answered(sentAt: number, waitMs: number | undefined): void {
    const now = performance.now();
    this.lastAt = now;
    if (waitMs === undefined) {
      this.accepted.add(now);
      this.lastAcceptedAt = now;
      this.refusing = false;
      this.episodesRefused = 0;
      return;
    }
    this.limited++;
    if (this.refusing) return;
    const runningFor = now - Math.max(this.pausedUntil, this.firstAt ?? now);
    const until = now + waitMs;
    if (until > this.pausedUntil) {
      this.pausedMs += until - Math.max(now, this.pausedUntil);
      this.pausedUntil = until;
    }
    if (waitMs === 0 || sentAt < this.cutAt) return;
    this.cutAt = now;
    if (++this.episodesRefused >= this.tries) return this.refuse();
    const accepted = this.accepted.perSecond(now);
    if (this.rate === Infinity) {
      // The first one: start from the pace the server accepted so far (within the first second, per second of it).
      const span = Math.min(1000, Math.max(100, now - (this.firstAt ?? now)));
      this.rate = Math.max(MIN_RATE, (accepted * 1000) / span);
    } else if (runningFor >= 1000) {
      // What the server accepted over a whole second since the last pause measures the limit
      // (plus a burst a token bucket lets through): stay below it, growing slowly (see grow).
      this.ceiling = accepted;
      this.rate = Math.max(MIN_RATE, this.rate * 0.8, accepted * 0.9);
    } else {
      this.ceiling = this.rate;
      this.rate = Math.max(MIN_RATE, this.rate * 0.8);
    }
    this.slowest = Math.min(this.slowest, this.rate);
  }

  /** A request first sent at `firstSentAt` ran out of retries: if nothing was accepted since, the server is refusing. */
  gaveUp(firstSentAt: number): void {
    if (this.lastAcceptedAt < firstSentAt) this.refuse();
  }

  private refuse(): void {
    if (this.refusing) return;
    this.refusing = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.release();
  }

  /** Ends every wait now (the run was stopped), and every later one at once. */
  cancel(): void {
    this.cancelled = true;
    clearTimeout(this.timer);
    for (const wait of this.waiting.splice(0)) wait.reject(new Error('cancelled'));
    this.urgentWaiting = 0;
  }

  stats(): Pacing {
    const round = (r: number) => Math.round(r * 10) / 10;
    return {
      limited: this.limited,
      pausedMs: Math.round(this.pausedMs),
      ...(this.slowest === Infinity ? {} : { slowestRate: round(this.slowest) }),
      ...(this.rate === Infinity ? {} : { rate: round(this.rate) }),
      ...(this.cap === Infinity ? {} : { configuredRate: this.cap }),
      elapsedMs: this.firstAt === undefined ? 0 : Math.round(this.lastAt - this.firstAt),
    };
  }
}

/** Answers per second over the last second, in ten buckets of 100 ms (constant work per answer). */
class RateMeter {
  private readonly buckets = new Array<number>(10).fill(0);
  private current = 0;

  add(now: number): void {
    this.roll(now);
    this.buckets[this.current % 10]! += 1;
  }

  perSecond(now: number): number {
    this.roll(now);
    return this.buckets.reduce((a, b) => a + b, 0);
  }

  private roll(now: number): void {
    const bucket = Math.floor(now / 100);
    for (let b = Math.max(this.current + 1, bucket - 9); b <= bucket; b++) this.buckets[b % 10] = 0;
    this.current = Math.max(this.current, bucket);
  }
}

/**
 * The pacing in plain words for the run's summary line, e.g. "12 request(s) retried after
 * 429/503 with Retry-After; slowed to ~18 req/s after 429s, paused 3 s in all; run took 94 s".
 * Undefined when nothing was retried or paced.
 */
export function describePacing(pacing: Pacing, retried: number): string | undefined {
  if (retried === 0 && pacing.limited === 0 && pacing.configuredRate === undefined) return undefined;
  const parts: string[] = [];
  if (retried > 0) parts.push(`${retried} request(s) retried after 429/503 with Retry-After`);
  else if (pacing.limited > 0) parts.push(`${pacing.limited} answer(s) 429/503 with Retry-After, none retried`);
  const pace = (r: number) => (r >= 10 ? Math.round(r) : Math.round(r * 10) / 10);
  const slowed =
    pacing.slowestRate === undefined ? undefined : `slowed to ~${pace(pacing.slowestRate)} req/s after 429s`;
  if (pacing.configuredRate !== undefined)
    parts.push(`paced at most ${pace(pacing.configuredRate)} req/s (--rate)${slowed ? `, then ${slowed}` : ''}`);
  else if (slowed) parts.push(slowed);
  if (pacing.pausedMs > 0) parts.push(`paused ${(pacing.pausedMs / 1000).toFixed(1)} s in all as Retry-After asked`);
  parts.push(`run took ${Math.round(pacing.elapsedMs / 1000)} s`);
  return parts.join('; ');
}
