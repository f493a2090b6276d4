// The run without a test runner: the selected checks in one run context, in the order of run()
// (ordinary checks at once, then the run-wide rules and the fragile checks), each outcome as the
// reports take it. The command line, runConformance, the kill matrix and vitest's adapter
// (src/vitest/adapter.ts: one test per check, saying how it ended here) run this.
import type { RunConfig } from '../config/config.js';
import {
  execute,
  judgeRun,
  type Check,
  type CheckOutcome,
  type Outcome,
  type RunObserver,
} from '../checks/requirement.js';
import { RunContext } from '../checks/context.js';
import { selectChecks } from '../checks/select.js';
import { describePacing } from '../wire/pacer.js';
import { addRetries, noRetries, type Retries, type SentRequest } from '../wire/requests.js';
import { requestOnly } from '../wire/evidence.js';
import { coverageOf, type RunCoverage } from './coverage.js';
import { soak } from './soak.js';
import type { TargetWatch } from '../checks/target-watch.js';
import type { RequirementId } from '../data/generated/requirement-ids.js';
import type {
  CheckInput,
  DeploymentFinding,
  RunRetries,
  RunNetwork,
  RunSoak,
  TargetLost,
  TargetPoisoned,
} from '../report/results.js';

/** What the checks of a run left for its reports. */
export interface ChecksRun {
  /** Every selected check, in the catalogue's order by area. */
  checks: CheckInput[];
  /** Ids (exact digits) of the pets the run created, in the order it created them. */
  created: string[];
  runTag: string;
  /** HTTP requests the checks sent (each retry counts). */
  requests: number;
  retries: RunRetries;
  /** The target stopped answering during the run (see TargetWatch), else null. */
  targetLost: TargetLost | null;
  /** The suite's own input broke the target (see TargetWatch), else null. */
  targetPoisoned: TargetPoisoned | null;
  /** What a gateway in front answered itself: findings about the deployment. */
  deployment: DeploymentFinding[];
  /** The Server header of the target's first successful answer. */
  targetServer?: string;
  /** The catalogued inputs sent and not, and the statuses each operation answered. */
  coverage: RunCoverage;
  /** --soak: the rounds of properties run after the checks, and what they found. */
  soak?: RunSoak;
  /** The protocol, the connections opened, the latency per operation. */
  network: RunNetwork;
}

/** What a runner is told while the checks run (the progress line, --verbose). */
export interface CheckEvents {
  /** The selected checks, in the catalogue's order, before any starts. */
  planned?(count: number, checks: readonly Check[]): void;
  started?(check: Check): void;
  finished?(check: Check, input: CheckInput): void;
  /** One of the suite's own lines, e.g. how requests were paced. */
  note?(line: string): void;
}

/** A check the run was interrupted before it finished decided nothing. */
export const INTERRUPTED = 'not decided: the run was interrupted before this check finished';

/** A check's outcome as the reports take it. */
export function checkInput(check: Check, outcome: CheckOutcome, retries?: Retries): CheckInput {
  const { check: _check, ...requirement } = check.requirement;
  return {
    requirement,
    name: check.name,
    kind: check.kind,
    outcome: outcome.outcome,
    ...(outcome.message === undefined ? {} : { message: outcome.message }),
    ...(outcome.note === undefined ? {} : { note: outcome.note }),
    evidence: outcome.evidence,
    durationMs: outcome.durationMs,
    ...(retries ? { retries } : {}),
    ...('causes' in outcome && outcome.causes ? { causes: outcome.causes } : {}),
    ...(outcome.blockedBy ? { blockedBy: outcome.blockedBy } : {}),
    ...(outcome.cases ? { cases: outcome.cases } : {}),
  };
}

export class ChecksRunner {
  private readonly ctx: RunContext;
  private readonly all: readonly Check[];
  private readonly selected: Check[];
  private readonly decided = new Map<Check, CheckInput>();
  private readonly startedAt = new Map<Check, number>();
  private soaked: RunSoak | undefined;
  /** Once the ordinary checks have ended: the checks begun from then on are late (see RunContext.late). */
  private late = false;

  /** `select`: the checks to run, in the catalogue's order, instead of the configuration's --only and --skip. */
  constructor(
    all: readonly Check[],
    config: RunConfig,
    private readonly events: CheckEvents = {},
    select?: (check: Check) => boolean,
  ) {
    this.ctx = new RunContext(config);
    this.all = all;
    this.selected = select ? all.filter(select) : selectChecks(all, config);
  }

  /**
   * Runs the selected checks and closes the client, in four steps, each once the one before has
   * ended: every ordinary check at once; the run-wide rules' own cases; the fragile checks (what
   * may crash a fragile target, so it is judged on the rest first); the run-wide rules' verdicts
   * over every answer of the run.
   */
  async run(): Promise<ChecksRun> {
    const { ctx, events } = this;
    events.planned?.(this.selected.length, this.selected);
    const runWide = this.selected.filter((c) => c.observer);
    // Each selected rule over the run watches every answer from the first request on.
    const observers = new Map(runWide.map((c) => [c, c.observer?.(ctx) as RunObserver]));
    for (const observer of observers.values()) ctx.observeWith(observer);
    const all = (checks: Check[]) => Promise.all(checks.map((c) => this.end(c, this.begin(c))));
    try {
      await all(this.selected.filter((c) => !c.observer && !c.fragile));
      const own = await Promise.all(runWide.map((c) => this.begin(c)));
      // The fragile examples begin first, taking what they reserve of the write budget; then the
      // fragile properties may hold what is left (see RunContext.late).
      this.late = true;
      const fragile = this.selected.filter((c) => c.fragile);
      await all([...fragile.filter((c) => c.kind !== 'property'), ...fragile.filter((c) => c.kind === 'property')]);
      await Promise.all(
        runWide.map((c, i) => this.end(c, judgeRun(c, observers.get(c) as RunObserver, ctx, own[i] as Outcome))),
      );
      if (ctx.config.soakMs !== undefined) {
        // The properties that passed, again with the next seeds; a failure replaces the pass.
        const passed = this.selected.filter((c) => c.kind === 'property' && this.decided.get(c)?.outcome === 'passed');
        events.note?.(`petstore-conformance: soaking ${passed.length} properties for ${ctx.config.soakMs / 1000} s`);
        this.soaked = await soak(ctx, passed, ctx.config.soakMs, (c, o) => this.end(c, Promise.resolve(o)));
      }
      const pacing = describePacing(ctx.client.pacing, ctx.client.retried.count);
      if (pacing) events.note?.(`petstore-conformance: ${pacing}`);
    } finally {
      await ctx.close();
    }
    return this.snapshot();
  }

  private begin(check: Check): Promise<CheckOutcome> {
    this.startedAt.set(check, performance.now());
    this.events.started?.(check);
    return execute(check, this.ctx, this.late);
  }

  private async end(check: Check, outcome: Promise<CheckOutcome>): Promise<void> {
    const { ctx } = this;
    const settled = await outcome;
    // Once interrupted, a check's requests were aborted under it: it decided nothing.
    const input = ctx.client.aborted ? this.interrupted(check) : checkInput(check, settled, ctx.retriesOf(check.name));
    this.decided.set(check, input);
    this.events.finished?.(check, input);
  }

  /** The last requests left without an answer, newest last (e.g. `GET /v1/pets/%ZZ`). */
  lastUnanswered(): string[] {
    return [...this.ctx.watch.unanswered];
  }

  /** Ctrl-C: every request of the run stops at once, so every check ends in moments. */
  interrupt(): void {
    this.ctx.interrupt();
  }

  /** What is decided now; a check that has not finished is undecided (interrupted). */
  snapshot(): ChecksRun {
    const { ctx } = this;
    const checks = this.selected.map((c) => this.decided.get(c) ?? this.interrupted(c));
    const targetPoisoned = ctx.watch.poisoned((sent, by) => failedOn(checks, sent, by)) ?? null;
    return {
      checks: targetPoisoned?.cause ? blockedByTurn(checks, targetPoisoned, ctx.watch) : checks,
      created: ctx.ledger.map(String),
      runTag: ctx.runTag,
      requests: ctx.client.requestCount,
      retries: { ...addRetries(noRetries(), ctx.retries), pacing: ctx.client.pacing },
      targetLost: ctx.watch.lost() ?? null,
      targetPoisoned,
      deployment: ctx.deployment.findings(),
      coverage: coverageOf(this.all, this.selected, this.decided, ctx.coverage.snapshot()),
      network: {
        traceId: ctx.config.traceId,
        protocol: 'HTTP/1.1',
        connections: ctx.client.opened
          ? { opened: ctx.client.opened.count, unusedAhead: ctx.client.opened.unused }
          : null,
        latency: ctx.latency.snapshot(),
      },
      ...(this.soaked ? { soak: this.soaked } : {}),
      ...(ctx.serverHeader ? { targetServer: ctx.serverHeader } : {}),
    };
  }

  private interrupted(check: Check): CheckInput {
    const started = this.startedAt.get(check);
    const durationMs = started === undefined ? 0 : Math.round(performance.now() - started);
    return checkInput(check, { outcome: 'error', message: INTERRUPTED, evidence: [], durationMs });
  }
}

/** Whether a check of requirement `by` failed with the request `sent` among its evidence (the same request, as evidence writes it). */
function failedOn(checks: readonly CheckInput[], sent: SentRequest, by: string): boolean {
  const { request } = requestOnly(sent);
  return checks.some(
    (c) =>
      c.requirement.id === by &&
      c.outcome === 'failed' &&
      c.evidence.some(
        (x) => x.request.method === request.method && x.request.url === request.url && x.request.body === request.body,
      ),
  );
}

/**
 * A target turned failing by a request that was itself a violation (TargetPoisoned.cause): the
 * other failures whose every exchange is a 5xx answer of the operation that turned failing broke
 * no rule of their own on that evidence. Each failing case is put down to the requirement that
 * broke the target, which blocks them (src/report/causes.ts): one story, told once.
 */
function blockedByTurn(checks: readonly CheckInput[], p: TargetPoisoned, watch: TargetWatch): CheckInput[] {
  const by = p.by as RequirementId;
  const onTurn = watch.onTurn(p);
  return checks.map((c) =>
    c.outcome === 'failed' && c.requirement.id !== by && c.evidence.length > 0 && c.evidence.every(onTurn)
      ? { ...c, causes: (c.causes?.length ? c.causes : [{}]).map(() => ({ rules: [by] })) }
      : c,
  );
}
