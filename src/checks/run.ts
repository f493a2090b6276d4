// One run's shared state: configuration, the client, the write budget, the ledger of pets the
// run created, and the store population that some checks need. Checks see only this.
import { AsyncLocalStorage } from 'node:async_hooks';
import { Client } from '../wire/client.js';
import { addRetries, noRetries, type ApiResponse, type Retries, type SendRecord } from '../wire/wire.js';
import { DeploymentAnswers } from './deployment.js';
import { HarWriter } from '../wire/har.js';
import { redact } from '../wire/redact.js';
import { clock, type RunConfig } from '../config/config.js';
import { exactInteger, type Int64 } from '../wire/json.js';
import type { Message } from './message.js';
import type { RequirementId } from '../data/generated/requirement-ids.js';
import type { AnswerFrom, CheckRef, RunObserver } from './observer.js';
import type { NewPet } from '../data/generated/schema-types.js';
import { TargetWatch } from './target-watch.js';
import { Coverage } from './coverage.js';
import { addedAfter } from '../data/requirement-sets.js';
import {
  CreateAllowance,
  POPULATION_PLAN,
  POPULATION_TOTAL,
  PROPERTY_SHARE,
  ScopeWrites,
  WriteBudget,
  type Population,
  type WriteAccount,
} from './budget.js';

export { CreateAllowance, POPULATION_PLAN, POPULATION_TOTAL, PROPERTY_SHARE, type Population } from './budget.js';

/**
 * The tag in the name of every pet a run creates (`pcs-` and the seed in base 36), so operators
 * of a shared store can find them; a replay with the same seed uses the same tag.
 */
export function runTagOf(seed: number): string {
  return `pcs-${(seed >>> 0).toString(36)}`;
}

/** The check a request is sent for, and whether its error answer is judged only at SHOULD. */
interface Sender {
  check?: CheckRef;
  exempt?: true;
  /** Sent for work the checks share (the store's population), not for `check`, which asked first: the HAR says so. */
  shared?: string;
  /** Where its requests that may create take their creations (the client asks: see ClientOptions.takeCreation). */
  writes?: ScopeWrites;
}
const sender = new AsyncLocalStorage<Sender>();
/** Who the HAR names as a request's sender: its check, or none and why. */
const senderOf = (from: Sender | undefined): [string | undefined, string?] =>
  from?.shared ? [undefined, from.shared] : [from?.check?.name];

export class RunContext {
  readonly api: Client;
  /** Ids of every pet this run created, from every 201 seen (there is no delete operation). */
  readonly ledger: Int64[] = [];
  /** Appears in the name of every pet the run creates, so operators can find them. */
  readonly runTag: string;
  private readonly budget: WriteBudget;
  private readonly shared = new Map<string, Promise<unknown>>();
  private nameCounter = 0;
  /** Pet id → requirement whose check created it (see creatorOf). */
  private readonly creators = new Map<string, RequirementId>();
  /** Name → id of every pet this run created (see createdIdOf). */
  private readonly createdIds = new Map<string, string>();
  /** The selected requirements' rules over every answer of the run (see Requirement.observer). */
  private readonly observers: RunObserver[] = [];
  /** What a gateway in front answered itself: findings about the deployment. */
  readonly deployment = new DeploymentAnswers();
  /** With --har: every send of the run, written as it ends, with the check that sent it. */
  private readonly har: HarWriter | undefined;
  /** Requests of the run sent again or given up on (429/503 with Retry-After, stale connections), in all and per check. */
  readonly retries: Retries = noRetries();
  private readonly retriesByCheck = new Map<string, Retries>();
  /** Whether the target is still answering (see TargetWatch). */
  readonly watch: TargetWatch;
  /** The catalogued inputs sent and the statuses each operation answered (see Coverage). */
  readonly coverage = new Coverage();
  /**
   * Set by the runner once the ordinary checks have ended and the fragile ones have taken what they
   * reserve: from then on only the fragile properties want the write budget (see checkProperty).
   */
  ordinaryChecksEnded = false;
  /**
   * --soak (src/run/soak.ts): the round the properties run in (0: the run itself) and the run seed
   * they draw from (the next seeds in the rounds after); the cases they have checked in all.
   */
  soakRound = 0;
  propertySeed: number;
  propertyCases = 0;
  /** The Server header of the first successful answer: with the base URL, the target's fingerprint. */
  get serverHeader(): string | undefined {
    return this.firstServer;
  }
  private firstServer: string | undefined;
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
    this.watch = new TargetWatch(config.timeoutMs, `${new URL(config.baseUrl).pathname.replace(/\/+$/, '')}/pets`);
    this.api = new Client({
      baseUrl: config.baseUrl,
      apiKey: config.apiKey,
      timeoutMs: config.timeoutMs,
      concurrency: config.concurrency,
      readOnly: config.readOnly,
      takeCreation: () => this.writesHere().take(),
      retries: config.retries,
      ...(config.rate === undefined ? {} : { rate: config.rate }),
      // The bundled server, or one served in this process, is on loopback: a proxy from the
      // environment is for a real target.
      proxy: config.embedded || config.inProcess ? 'none' : 'env',
      onResponse: (res) => this.record(res),
      onNoAnswer: (sent, err, sentAt) => this.watch.noAnswer(sent, err, sentAt),
      onRetried: (retried) => this.recordRetries(retried),
      ...(har ? { onSend: (send: SendRecord) => har.add(send, ...senderOf(sender.getStore())) } : {}),
    });
  }

  /** Hands every answer of the run from now on to `observer` too (the runner, for each selected requirement's). */
  observeWith(observer: RunObserver): void {
    this.observers.push(observer);
  }

  private recordRetries(retried: Retries): void {
    addRetries(this.retries, retried);
    const check = sender.getStore()?.check?.name;
    if (check === undefined) return;
    const mine = this.retriesByCheck.get(check) ?? noRetries();
    this.retriesByCheck.set(check, addRetries(mine, retried));
  }

  /** What the requests of one check (by the name runCheck gave it) took beyond one send; undefined: nothing. */
  retriesOf(check: string): Retries | undefined {
    return this.retriesByCheck.get(check);
  }

  private record(res: ApiResponse): void {
    if (this.firstServer === undefined && res.status >= 200 && res.status < 300 && res.headers.server)
      this.firstServer = res.headers.server;
    const sent = sender.getStore();
    const checkId = sent?.check?.id;
    this.watch.answered(res, checkId ?? 'the run');
    this.coverage.answered(this.watch.operationOf(res.request), res.status);
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

  /** The id the pet this run created with this name was given, if it created one (names carry a counter, so they are unique). */
  createdIdOf(name: string): string | undefined {
    return this.createdIds.get(name);
  }

  /**
   * The requirement whose check created the pet with this id (not the population's pets): a list
   * holding it spoiled is evidence against that requirement's rule first (see CaseCause.pets).
   */
  creatorOf(id: string): RequirementId | undefined {
    return this.creators.get(id);
  }

  /** Runs one check: its requests are attributed to it. */
  runCheck<T>(check: CheckRef, fn: () => Promise<T>): Promise<T> {
    return sender.run({ check, writes: new ScopeWrites(this.budget.account) }, fn);
  }

  /** Runs `fn` with `writes` paying for its requests that may create (a property's run). */
  withWrites<T>(writes: ScopeWrites, fn: () => Promise<T>): Promise<T> {
    return sender.run({ ...sender.getStore(), writes }, fn);
  }

  /** Where a request sent here would take its creation: its scope's account, else the run's budget. */
  writesHere(): WriteAccount {
    return sender.getStore()?.writes ?? this.budget.account;
  }

  /** Runs `fn` with its error answers kept out of the run-wide Error rules (a SHOULD judges them). */
  exemptFromErrorRules<T>(fn: () => Promise<T>): Promise<T> {
    return sender.run({ ...sender.getStore(), exempt: true }, fn);
  }

  /** Stops every request of the run at once (Ctrl-C). */
  interrupt(): void {
    this.api.abort();
  }

  /** The suite's clock (PETSTORE_NOW or the real time). */
  now(): Date {
    return clock(this.config);
  }

  /** A name carrying the run tag, unique within the run. */
  petName(label = 'pet'): string {
    return `${this.runTag} ${label} ${++this.nameCounter}`;
  }

  /** A valid NewPet with a tagged name. */
  newPet(fields: Partial<NewPet> = {}): NewPet {
    return { name: this.petName(), categoryId: 1, ...fields };
  }

  /**
   * Takes n creations from the write budget ahead, for the requests of this check that may create
   * (which take them as they are sent), or skips the check saying why: so a check that needs n pets
   * skips before its first request rather than halfway.
   */
  reserveCreates(n: number, what: Message): void {
    this.budget.reserve(n, what);
    sender.getStore()?.writes?.add(n);
  }

  /** Pets still creatable within the budget. */
  get createsLeft(): number {
    return this.budget.left;
  }

  /**
   * Creations for a property: at most `wanted`, and at most its `weight` (a fraction) of the
   * properties' share of the budget (PROPERTY_SHARE) or `atLeast` if more, but at least one; Skip in
   * read-only mode or when the budget is spent. Close the allowance when the property ends.
   */
  propertyCreates(weight: number, wanted: number, what: Message, atLeast = 1): CreateAllowance {
    const share = Math.max(atLeast, Math.floor(this.config.maxCreates * PROPERTY_SHARE * weight));
    const n = Math.max(1, Math.min(wanted, share, this.createsLeft));
    this.budget.reserve(n, what);
    return new CreateAllowance(n, (unused) => this.budget.release(unused));
  }

  /**
   * Runs `work` once per run (the first call's), as work the checks share: the HAR names `what` as
   * its sender rather than the check that asked first, and the pets it creates are no check's
   * evidence. Every call gets the same promise.
   */
  sharedOnce<T>(key: string, what: string, work: () => Promise<T>): Promise<T> {
    let done = this.shared.get(key) as Promise<T> | undefined;
    if (!done) {
      done = sender.run({ ...sender.getStore(), shared: what, writes: new ScopeWrites(this.budget.account) }, work);
      this.shared.set(key, done);
    }
    return done;
  }

  async close(): Promise<void> {
    await this.api.close();
    this.har?.close();
  }
}
