// What a check sees of its run: the run's state (src/checks/run-state.ts) through the context the
// runner builds for the check, whose client is stamped with it (Client.for), so every request,
// answer, retry and creation is the check's without any ambient state.
import type { Api, Client } from '../wire/client.js';
import type { Retries } from '../wire/requests.js';
import { clock, type RunConfig } from '../config/config.js';
import type { Int64 } from '../wire/json.js';
import type { Message } from './message.js';
import type { RequirementId } from '../data/generated/requirement-ids.js';
import type { CheckRef, RunObserver } from './observer.js';
import type { NewPet } from '../data/generated/schema-types.js';
import type { TargetWatch } from './target-watch.js';
import type { Coverage } from './coverage.js';
import type { Latency } from './latency.js';
import type { DeploymentAnswers } from './deployment.js';
import { RunState, type Sender } from './run-state.js';
import type { PropertyCase } from '../data/generated/report-types.js';
import { CreateAllowance, PROPERTY_SHARE, ScopeWrites, type WriteAccount } from './budget.js';

export { CreateAllowance, POPULATION_PLAN, POPULATION_TOTAL, PROPERTY_SHARE, type Population } from './budget.js';
export { runTagOf } from './run-state.js';

export class RunContext {
  /** This context's requests, stamped with its check, writes and flags. */
  readonly api: Api;
  private readonly state: RunState;
  private readonly sender: Sender;

  /** A run's root context (no check: the runner builds each check's with forCheck). */
  constructor(
    readonly config: RunConfig,
    within?: { state: RunState; sender: Sender },
  ) {
    this.state = within?.state ?? new RunState(config);
    this.sender = within?.sender ?? {};
    this.api = this.state.client.for(this.sender);
  }

  private derived(sender: Sender): RunContext {
    return new RunContext(this.config, { state: this.state, sender });
  }

  /**
   * The context of one check, built by the runner: its requests attributed to it, its notes, its
   * writes; `late`: started once the ordinary checks had ended (see checkProperty).
   */
  forCheck(check: CheckRef, late = false): RunContext {
    return this.derived({
      check,
      writes: new ScopeWrites(this.state.budget.account),
      notes: [],
      cases: [],
      ...(late ? { late: true as const } : {}),
    });
  }

  /** A note for this check, shown with its outcome when it passes (e.g. answers it did not judge). */
  note(text: string): void {
    this.sender.notes?.push(text);
  }

  /** This check's notes so far. */
  get notes(): readonly string[] {
    return this.sender.notes ?? [];
  }

  /** A property of this check failed on `found`: recorded in the report, for `replay`. */
  caseFound(found: PropertyCase): void {
    this.sender.cases?.push(found);
  }

  /** This check's failing property cases so far. */
  get cases(): readonly PropertyCase[] {
    return this.sender.cases ?? [];
  }

  /** `replay`: the cases its report recorded for this check's property `label`, else undefined (a run draws its inputs). */
  replaying(label: string): readonly PropertyCase[] | undefined {
    const name = this.sender.check?.name;
    const cases = name === undefined ? undefined : this.config.replaying?.get(name);
    return cases?.filter((c) => c.label === label);
  }

  /** Started once the ordinary checks had ended and the fragile ones had taken what they reserve. */
  get late(): boolean {
    return this.sender.late === true;
  }

  /** This context with `writes` paying for its requests that may create (a property's run). */
  withWrites(writes: ScopeWrites): RunContext {
    return this.derived({ ...this.sender, writes });
  }

  /** Where a request sent here would take its creation: its scope's account, else the run's budget. */
  writesHere(): WriteAccount {
    return this.sender.writes ?? this.state.budget.account;
  }

  /** This context with its error answers kept out of the run-wide Error rules (a SHOULD judges them). */
  exempt(): RunContext {
    return this.derived({ ...this.sender, exempt: true });
  }

  /**
   * Runs `work` once per run (the first call's), as work the checks share: the HAR names `what` as
   * its sender rather than the check that asked first, and the pets it creates are no check's
   * evidence. Every call gets the same promise.
   */
  sharedOnce<T>(key: string, what: string, work: (ctx: RunContext) => Promise<T>): Promise<T> {
    let done = this.state.shared.get(key) as Promise<T> | undefined;
    if (!done) {
      const writes = new ScopeWrites(this.state.budget.account);
      done = work(this.derived({ ...this.sender, shared: what, writes }));
      this.state.shared.set(key, done);
    }
    return done;
  }

  /** The run's client: its counts, its pacing, whether it was interrupted (the runner's view). */
  get client(): Client<Sender> {
    return this.state.client;
  }

  /** Ids of every pet this run created, from every 201 seen (there is no delete operation). */
  get ledger(): readonly Int64[] {
    return this.state.ledger;
  }

  /** Appears in the name of every pet the run creates, so operators can find them. */
  get runTag(): string {
    return this.state.runTag;
  }

  /** The pathname of the /pets collection under the base URL, e.g. /v1/pets. */
  get listPath(): string {
    return this.state.listPath;
  }

  get deployment(): DeploymentAnswers {
    return this.state.deployment;
  }

  /** Requests of the run sent again or given up on, in all. */
  get retries(): Retries {
    return this.state.retries;
  }

  get watch(): TargetWatch {
    return this.state.watch;
  }

  get coverage(): Coverage {
    return this.state.coverage;
  }

  get latency(): Latency {
    return this.state.latency;
  }

  /** The Server header of the first successful answer: with the base URL, the target's fingerprint. */
  get serverHeader(): string | undefined {
    return this.state.firstServer;
  }

  /** --soak: the round the properties run in (0: the run itself). */
  get soakRound(): number {
    return this.state.soakRound;
  }
  set soakRound(round: number) {
    this.state.soakRound = round;
  }

  /** The run seed the properties draw from (the next seeds in soak rounds). */
  get propertySeed(): number {
    return this.state.propertySeed;
  }
  set propertySeed(seed: number) {
    this.state.propertySeed = seed;
  }

  /** The cases the properties have checked in all. */
  get propertyCases(): number {
    return this.state.propertyCases;
  }
  set propertyCases(n: number) {
    this.state.propertyCases = n;
  }

  /** Hands every answer of the run from now on to `observer` too (the runner, for each selected requirement's). */
  observeWith(observer: RunObserver): void {
    this.state.observers.push(observer);
  }

  /** What the requests of one check (by its name) took beyond one send; undefined: nothing. */
  retriesOf(check: string): Retries | undefined {
    return this.state.retriesByCheck.get(check);
  }

  /** The id the pet this run created with this name was given, if it created one (names carry a counter, so they are unique). */
  createdIdOf(name: string): string | undefined {
    return this.state.createdIds.get(name);
  }

  /**
   * The requirement whose check created the pet with this id (not the population's pets): a list
   * holding it spoiled is evidence against that requirement's rule first (see CaseCause.pets).
   */
  creatorOf(id: string): RequirementId | undefined {
    return this.state.creators.get(id);
  }

  /** Stops every request of the run at once (Ctrl-C). */
  interrupt(): void {
    this.state.client.abort();
  }

  /** The suite's clock (PETSTORE_NOW or the real time). */
  now(): Date {
    return clock(this.config);
  }

  /** A name carrying the run tag, unique within the run. */
  petName(label = 'pet'): string {
    return `${this.runTag} ${label} ${++this.state.nameCounter}`;
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
    this.state.budget.reserve(n, what);
    this.sender.writes?.add(n);
  }

  /** Pets still creatable within the budget. */
  get createsLeft(): number {
    return this.state.budget.left;
  }

  /**
   * Creations for a property: at most `wanted`, and at most its `weight` (a fraction) of the
   * properties' share of the budget (PROPERTY_SHARE) or `atLeast` if more, but at least one; Skip in
   * read-only mode or when the budget is spent. Close the allowance when the property ends.
   */
  propertyCreates(weight: number, wanted: number, what: Message, atLeast = 1): CreateAllowance {
    const share = Math.max(atLeast, Math.floor(this.config.maxCreates * PROPERTY_SHARE * weight));
    const n = Math.max(1, Math.min(wanted, share, this.createsLeft));
    this.state.budget.reserve(n, what);
    return new CreateAllowance(n, (unused) => this.state.budget.release(unused));
  }

  async close(): Promise<void> {
    await this.state.close();
  }
}
