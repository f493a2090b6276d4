// One run's shared state: configuration, the client, the write budget, the ledger of pets the
// run created, and the store population that some checks need. Checks see only this.
import { AsyncLocalStorage } from 'node:async_hooks';
import { Client } from '../wire/client.js';
import { addRetries, noRetries, type ApiResponse, type Retries, type SendRecord } from '../wire/wire.js';
import { ErrorAnswers } from './error-answers.js';
import { ListAnswers } from './list-answers.js';
import { HarWriter } from '../wire/har.js';
import { redact } from '../wire/redact.js';
import { clock, type RunConfig } from '../config/config.js';
import { exactInteger, type Int64 } from '../wire/json.js';
import { LIMIT } from '../data/generators.js';
import { PET_STATUSES } from '../data/schemas.js';
import { requirementOf, Skip, Violation } from './outcomes.js';
import { msg, type Message } from './message.js';
import type { RequirementId } from '../data/generated/requirement-ids.js';
import { expectCreated, expectPetList, expectStatus } from './assert.js';
import type { NewPet, Pet, PetStatus } from '../data/generated/schema-types.js';
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
  check: string;
  exempt?: true;
  /** Sent for work the checks share (the store's population), not for `check`, which asked first: the HAR says so. */
  shared?: string;
  /** Where its requests that may create take their creations (the client asks: see ClientOptions.takeCreation). */
  writes?: ScopeWrites;
}
const sender = new AsyncLocalStorage<Sender>();
const POPULATING = 'populating the store, which the checks needing more than 100 pets share';
/** Who the HAR names as a request's sender: its check, or none and why. */
const senderOf = (from: Sender | undefined): [string | undefined, string?] =>
  from?.shared ? [undefined, from.shared] : [from?.check];

export class RunContext {
  readonly api: Client;
  /** Ids of every pet this run created, from every 201 seen (there is no delete operation). */
  readonly ledger: Int64[] = [];
  /** Appears in the name of every pet the run creates, so operators can find them. */
  readonly runTag: string;
  private readonly budget: WriteBudget;
  private population?: Promise<Population>;
  private nameCounter = 0;
  /** Pet id → requirement whose check created it (see creatorOf). */
  private readonly creators = new Map<string, RequirementId>();
  /** Name → id of every pet this run created (see createdIdOf). */
  private readonly createdIds = new Map<string, string>();
  /** Every error answer of the run, judged by the Error rules as it arrives (see src/checks/error-answers.ts). */
  readonly errorAnswers = new ErrorAnswers();
  /** Every list answer of the run, judged by the list rules as it arrives (see src/checks/list-answers.ts). */
  readonly listAnswers: ListAnswers;
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
    this.listAnswers = new ListAnswers(`${new URL(config.baseUrl).pathname.replace(/\/+$/, '')}/pets`);
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

  private recordRetries(retried: Retries): void {
    addRetries(this.retries, retried);
    const check = sender.getStore()?.check;
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
    const from = sender.getStore();
    this.watch.answered(res, from ? requirementOf(from.check) : 'the run');
    this.coverage.answered(this.watch.operationOf(res.request), res.status);
    const unscored = from !== undefined && this.unscored.has(requirementOf(from.check));
    this.errorAnswers.record(res, from?.check ?? 'the run', from?.exempt || unscored);
    if (!unscored) this.listAnswers.record(res, from?.shared ? 'the population' : (from?.check ?? 'the run'));
    if (res.request.method !== 'POST' || res.status !== 201 || res.json === null || typeof res.json !== 'object')
      return;
    const id = (res.json as { id?: unknown }).id;
    const digits = exactInteger(id);
    if (digits === undefined) return;
    this.ledger.push(id as Int64);
    if (from) this.creators.set(digits, requirementOf(from.check));
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
  runCheck<T>(name: string, fn: () => Promise<T>): Promise<T> {
    return sender.run({ check: name, writes: new ScopeWrites(this.budget.account) }, fn);
  }

  /** Runs `fn` with `writes` paying for its requests that may create (a property's run). */
  withWrites<T>(writes: ScopeWrites, fn: () => Promise<T>): Promise<T> {
    return sender.run({ ...(sender.getStore() ?? { check: 'the run' }), writes }, fn);
  }

  /** Where a request sent here would take its creation: its scope's account, else the run's budget. */
  writesHere(): WriteAccount {
    return sender.getStore()?.writes ?? this.budget.account;
  }

  /** Runs `fn` with its error answers kept out of the run-wide Error rules (a SHOULD judges them). */
  exemptFromErrorRules<T>(fn: () => Promise<T>): Promise<T> {
    return sender.run({ ...(sender.getStore() ?? { check: 'the run' }), exempt: true }, fn);
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

  /** Creates a pet the check needs as a fixture: 201 and a valid Pet, or a violation. */
  async createPet(body: NewPet = this.newPet()): Promise<{ pet: Pet; res: ApiResponse }> {
    this.reserveCreates(1, msg`this check`);
    const res = await this.api.createPet(body);
    // The fixture's answer is createPet.minimal's rule (or another the answer names), not the check's.
    return { pet: expectCreated(res, body, msg`the pet must be created`), res };
  }

  /**
   * Makes sure the store holds more than 100 pets and at least POPULATION_PLAN of each status,
   * creating what is missing within the budget. Done once per run; pets of others count too.
   */
  ensurePopulation(): Promise<Population> {
    // A server that cannot be populated fails the createPet checks; here the check is undecidable.
    this.population ??= sender
      .run(
        {
          ...(sender.getStore() ?? { check: 'the run' }),
          shared: POPULATING,
          writes: new ScopeWrites(this.budget.account),
        },
        () => this.populate(),
      )
      .catch((err: unknown) => {
        if (err instanceof Violation) throw new Skip(msg`the store could not be populated: ${err.message}`);
        throw err;
      });
    return this.population;
  }

  private async countStatus(status: PetStatus): Promise<number> {
    const res = await this.api.listPets([
      ['status', status],
      ['limit', String(LIMIT.max)],
    ]);
    expectStatus(res, 200);
    // Distinct ids only: a list repeating a pet proves no more pets.
    return new Set(
      expectPetList(res)
        .filter((p) => p.status === status)
        .map((p) => exactInteger(p.id)),
    ).size;
  }

  private async populate(): Promise<Population> {
    const counts = await Promise.all(PET_STATUSES.map((s) => this.countStatus(s as PetStatus)));
    const missing = PET_STATUSES.flatMap((s, i) =>
      Array.from({ length: Math.max(0, POPULATION_PLAN[s as PetStatus] - (counts[i] ?? 0)) }, () => s as PetStatus),
    );
    const all = await this.api.listPets([['limit', String(LIMIT.max)]]);
    expectStatus(all, 200);
    // Lists stop at 100; pets of different statuses are different pets, so the filtered counts
    // can prove more than 100 in all without creating any (read-only runs on a full store).
    const total = Math.max(
      expectPetList(all).length,
      counts.reduce((a, b) => a + b, 0),
    );
    const topUp = Math.max(0, POPULATION_TOTAL - total - missing.length);
    missing.push(...Array.from({ length: topUp }, () => 'available' as const));
    if (missing.length > 0) {
      this.reserveCreates(missing.length, msg`populating the store (checks that need more than 100 pets)`);
      await Promise.all(
        missing.map(async (status) => {
          const res = await this.api.createPet(this.newPet({ status }));
          expectStatus(res, 201, msg`populating the store`);
          // The population belongs to no check: its pets are no check's evidence.
          const id = exactInteger((res.json as { id?: unknown } | null)?.id);
          if (id !== undefined) this.creators.delete(id);
        }),
      );
    }
    const byStatus = Object.fromEntries(
      await Promise.all(PET_STATUSES.map(async (s) => [s, await this.countStatus(s as PetStatus)] as const)),
    ) as Record<PetStatus, number>;
    const after = await this.api.listPets([['limit', String(LIMIT.max)]]);
    return { byStatus, total: expectPetList(after).length };
  }

  async close(): Promise<void> {
    await this.api.close();
    this.har?.close();
  }
}
