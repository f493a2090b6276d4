// One run's state, shared by every check's context (src/checks/context.ts): the client, the write
// budget, the ledger of pets the run created, and who sent each request, handed with every answer
// to the selected requirements' observers.
import { Client } from '../wire/client.js';
import { addRetries, noRetries, type ApiResponse, type Retries } from '../wire/requests.js';
import { DeploymentAnswers } from './deployment.js';
import { HarWriter, type Sender as HarSender } from '../wire/har.js';
import { redact } from '../wire/redact.js';
import type { RunConfig } from '../config/config.js';
import { exactInteger, type Int64 } from '../wire/json.js';
import type { RequirementId } from '../data/generated/requirement-ids.js';
import type { PropertyCase } from '../data/generated/report-types.js';
import type { AnswerFrom, CheckRef, RunObserver } from './observer.js';
import { listPathOf, TargetWatch } from './target-watch.js';
import { Coverage } from './coverage.js';
import { Latency } from './latency.js';
import { addedAfter } from '../data/requirement-sets.js';
import { ScopeWrites, WriteBudget } from './budget.js';

/**
 * The tag in the name of every pet a run creates (`pcs-` and the seed in base 36), so operators
 * of a shared store can find them; a replay with the same seed uses the same tag.
 */
export function runTagOf(seed: number): string {
  return `pcs-${(seed >>> 0).toString(36)}`;
}

/** Who a request is sent for: what the client is stamped with in a check's context (Client.for). */
export interface Sender {
  check?: CheckRef;
  /** Its error answers are judged only at SHOULD. */
  exempt?: true;
  /** Sent for work the checks share (the store's population), not for `check`, which asked first: the HAR says so. */
  shared?: string;
  /** Where its requests that may create take their creations (the client asks: see ClientOptions.takeCreation). */
  writes?: ScopeWrites;
  /** The check's notes, shown with its outcome when it passes (see RunContext.note). */
  notes?: string[];
  /** Started once the ordinary checks had ended: only the fragile properties still want the write budget. */
  late?: true;
  /** The failing case of each of the check's properties that failed (see RunContext.caseFound). */
  cases?: PropertyCase[];
}

/** Who the HAR names as a request's sender: its check, or none and why. */
const harSenderOf = (from: Sender | undefined): [HarSender, string?] =>
  from?.shared || !from?.check
    ? [undefined, from?.shared]
    : [{ ...(from.check.id ? { requirement: from.check.id } : {}), check: from.check.name }];

export class RunState {
  readonly client: Client<Sender>;
  /** Ids of every pet this run created, from every 201 seen (there is no delete operation). */
  readonly ledger: Int64[] = [];
  /** Appears in the name of every pet the run creates, so operators can find them. */
  readonly runTag: string;
  /** The pathname of the /pets collection under the base URL, e.g. /v1/pets. */
  readonly listPath: string;
  readonly budget: WriteBudget;
  /** Work the checks share, by key (see RunContext.sharedOnce). */
  readonly shared = new Map<string, Promise<unknown>>();
  nameCounter = 0;
  /** Pet id → requirement whose check created it (see RunContext.creatorOf). */
  readonly creators = new Map<string, RequirementId>();
  /** Name → id of every pet this run created (see RunContext.createdIdOf). */
  readonly createdIds = new Map<string, string>();
  /** The selected requirements' rules over every answer of the run (see Requirement.observer). */
  readonly observers: RunObserver[] = [];
  /** What a gateway in front answered itself: findings about the deployment. */
  readonly deployment = new DeploymentAnswers();
  /** With --har: every send of the run, written as it ends, with the check that sent it. */
  private readonly har: HarWriter | undefined;
  /** Requests of the run sent again or given up on (429/503 with Retry-After, stale connections), in all and per check. */
  readonly retries: Retries = noRetries();
  readonly retriesByCheck = new Map<string, Retries>();
  /** Whether the target is still answering (see TargetWatch). */
  readonly watch: TargetWatch;
  /** The catalogued inputs sent and the statuses each operation answered (see Coverage). */
  readonly coverage = new Coverage();
  readonly latency = new Latency();
  /**
   * --soak (src/run/soak.ts): the round the properties run in (0: the run itself) and the run seed
   * they draw from (the next seeds in the rounds after); the cases they have checked in all.
   */
  soakRound = 0;
  propertySeed: number;
  propertyCases = 0;
  /** The Server header of the first successful answer: with the base URL, the target's fingerprint. */
  firstServer: string | undefined;
  /**
   * Requirements added after the set scored against (--requirement-set): their checks run, but the
   * run-wide rules do not judge what they sent, which a release of that set never sent.
   */
  private readonly unscored: ReadonlySet<string>;

  constructor(readonly config: RunConfig) {
    this.runTag = runTagOf(config.seed);
    this.propertySeed = config.seed;
    this.budget = new WriteBudget(config.maxCreates, config.readOnly);
    this.unscored = new Set(addedAfter(config.requirementSet).keys());
    const har = config.har
      ? new HarWriter(config.har, {
          title: `petstore-conformance against ${redact(config.baseUrl)}, seed ${config.seed}`,
        })
      : undefined;
    this.har = har;
    this.listPath = listPathOf(config.baseUrl);
    this.watch = new TargetWatch(config.timeoutMs, this.listPath);
    this.client = new Client<Sender>({
      baseUrl: config.baseUrl,
      apiKey: config.apiKey,
      timeoutMs: config.timeoutMs,
      concurrency: config.concurrency,
      readOnly: config.readOnly,
      traceId: config.traceId,
      takeCreation: (from) => (from?.writes ?? this.budget.account).take(),
      retries: config.retries,
      ...(config.rate === undefined ? {} : { rate: config.rate }),
      // The bundled server, or one served in this process, is on loopback: a proxy from the
      // environment is for a real target.
      proxy: config.embedded || config.inProcess ? 'none' : 'env',
      onResponse: (res, from) => this.record(res, from),
      onNoAnswer: (sent, err, sentAt) => this.watch.noAnswer(sent, err, sentAt),
      onRetried: (retried, from) => this.recordRetries(retried, from),
      ...(har ? { onSend: (send, from) => har.add(send, ...harSenderOf(from)) } : {}),
    });
  }

  private recordRetries(retried: Retries, from: Sender | undefined): void {
    addRetries(this.retries, retried);
    const check = from?.check?.name;
    if (check === undefined) return;
    const mine = this.retriesByCheck.get(check) ?? noRetries();
    this.retriesByCheck.set(check, addRetries(mine, retried));
  }

  private record(res: ApiResponse, sent: Sender | undefined): void {
    if (this.firstServer === undefined && res.status >= 200 && res.status < 300 && res.headers.server)
      this.firstServer = res.headers.server;
    const checkId = sent?.check?.id;
    this.watch.answered(res, checkId ?? 'the run');
    const operation = this.watch.operationOf(res.request);
    this.coverage.answered(operation, res.status);
    this.latency.answered(operation, res.durationMs);
    this.deployment.record(res);
    const from: AnswerFrom = {
      ...(sent?.check ? { check: sent.check } : {}),
      ...(sent?.exempt ? { exempt: true } : {}),
      ...(sent?.shared ? { population: true } : {}),
      ...(checkId !== undefined && this.unscored.has(checkId) ? { unscored: true } : {}),
    };
    for (const observer of this.observers) observer.observe(res, from);
    if (res.request.method !== 'POST' || res.status !== 201 || res.json === null || typeof res.json !== 'object')
      return;
    const id = (res.json as { id?: unknown }).id;
    const digits = exactInteger(id);
    if (digits === undefined) return;
    this.ledger.push(id as Int64);
    // Pets created for work the checks share are no check's evidence.
    if (checkId && !sent?.shared) this.creators.set(digits, checkId);
    const name = (res.json as { name?: unknown }).name;
    if (typeof name === 'string') this.createdIds.set(name, digits);
  }

  async close(): Promise<void> {
    await this.client.close();
    this.har?.close();
  }
}
