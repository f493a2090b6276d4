// Generated from schemas/conformance-report.schema.json and schemas/har-extension.schema.json by
// scripts/generate.ts. Do not edit by hand.
import type { OutcomeKind } from '../../checks/outcomes.js';
import type { BaselineEntry } from './schema-types.js';

export type RunRetries = Retries & {
  pacing: Pacing;
};
/**
 * conformant: no MUST requirement failed and every MUST requirement that ran was decided. nonconformant: a MUST requirement failed (in strict mode, a SHOULD one too). inconclusive: nothing proven violated, but a MUST requirement ended in error, the run was interrupted, the suite failed, or nothing ran. not-tested (since 1.2.0): no check ran, because the one request before them (the reachability probe or the authenticated preflight) showed the target could not be tested; run.diagnosis and verdictReason say why. Skipped requirements do not change the verdict.
 */
export type Verdict = "conformant" | "nonconformant" | "inconclusive" | "not-tested";
/**
 * Since 1.11.0. The conformance level, from the verdict and the scored outcomes with no judgement of its own: fully-conformant when the verdict is conformant and no SHOULD requirement failed or was left undecided (every MUST and every SHOULD met); conformant when the verdict is conformant and a SHOULD was not met; otherwise the verdict itself. Skipped requirements count for neither, as for the verdict. A reader of an older report derives it the same way.
 */
export type ConformanceLevel = "fully-conformant" | "conformant" | "nonconformant" | "inconclusive" | "not-tested";
export type RequirementResult = {
  /**
   * Stable requirement id, never reused.
   */
  id: string;
  /**
   * MUST: the interface says it. SHOULD: an HTTP standard it relies on, or sound practice, says it.
   */
  level: "MUST" | "SHOULD";
  /**
   * Heading of the interface document it comes from.
   */
  section: string;
  statement: string;
  /**
   * The id's first segment.
   */
  area: string;
  outcome: OutcomeKind;
  /**
   * Sum over its checks.
   */
  durationMs: number;
  /**
   * Present when outcome is skipped.
   */
  skipReason?: string;
  /**
   * Since 1.2.0. Only when outcome is passed: the cases its checks did not run, e.g. "2 of 6 cases not run in read-only mode (…)".
   */
  note?: string;
  /**
   * Present when outcome is failed or error: what was sent, what came back, what was expected.
   */
  message?: string;
  /**
   * @maxItems 10
   */
  evidence?: ReportExchange[];
  /**
   * Exchanges left out beyond the first 10.
   */
  evidenceOmitted?: number;
  /**
   * The first exchange's curl command.
   */
  reproduce?: string;
  retries?: Retries;
  /**
   * Since 1.4.0. Only when outcome is failed: the id of another failed requirement whose evidence explains this failure (the root cause, as far as the checks tell: each of its failing cases showed that one's exchange, or broke that one's rule while others showed an exchange breaking its own; see src/report/causes.ts). The reports list this failure under it, as also failed because of it.
   */
  causedBy?: string;
  /**
   * Since 1.7.0. Never when outcome is failed: the id of the failed requirement that left this one nothing to judge (a list rule with no valid list: listPets.ok), or whose rule every failing case of this one broke, none its own (a MUST may be blocked by a SHOULD it relied on). Those cases are not a violation of this requirement: its checks that met them are skipped, saying 'blocked by' that id, and it is skipped, or passed with that as its note when its other checks passed. The reports list it under that one.
   */
  blockedBy?: string;
  /**
   * Since 1.6.0. Present when the requirement is not in run.requirementSet, or (since 1.13.0) the set excludes it after an accepted challenge: it ran and keeps its outcome, but the verdict, the level and the counts leave it out.
   */
  notScored?: {
    /**
     * The requirement set that added it.
     */
    addedIn?: string;
    /**
     * Since 1.13.0. The exclusion of run.requirementSet that covers it: the issue where the challenge was accepted, and the day.
     */
    excluded?: {
      issue: string;
      date: string;
    };
  };
  baseline?: BaselineMark;
  /**
   * The requirement's own check and its properties.
   *
   * @minItems 1
   */
  checks: CheckResult[];
};
/**
 * Since 1.16.0. What a header's value must be once parsed as the check parses it (src/wire/headers.ts, which an exported test embeds): one of three kinds.
 */
export type HeaderTest =
  | {
      challenge: string;
      param: string;
      equals: string | null;
    }
  | {
      date: DateForm;
      from?: string;
      before?: string;
      notBefore?: {
        header: string;
        date: DateForm;
      };
    }
  | {
      linksTo: string;
    };
/**
 * Since 1.16.0. An IMF-fixdate (RFC 9110 §5.6.7) or a Structured Field Date (RFC 9651 §3.3.7).
 */
export type DateForm = "imf-fixdate" | "sf-date";

/**
 * The format of conformance.json, written by every run of petstore-conformance. `formatVersion` follows semantic versioning: a new optional field is a minor release, any other change a major one. Readers should ignore fields they do not know only across minor versions; this schema rejects unknown fields so that the suite's own output stays exactly as documented.
 */
export interface Results {
  /**
   * Identifies the file.
   */
  format: "petstore-conformance/report";
  /**
   * Version of this format; this schema describes 1.x. 1.1.0 added run.requests. 1.2.0 added the verdict not-tested with run.diagnosis, a passed requirement's note, and the retries: run.retries (with the pacing) and each requirement's retries. 1.3.0 added --baseline: run.baseline and each requirement's baseline mark (known or fixed). 1.4.0 added target.label, an exchange's harEntry (--har) and a requirement's causedBy (root cause first). 1.5.0 added run.server (--start), run.targetLost, run.targetPoisoned, run.deployment and suite.score. 1.6.0 added run.requirementSet, a requirement's notScored, run.baseline.strict and target.server. 1.7.0 added a requirement's blockedBy, and run.targetPoisoned's operation and valid (a target turning failing after any accepted write). 1.8.0 added run.targetLost's reproduce (curl commands of the requests it dropped). 1.9.0 added run.targetPoisoned's cause and run.coverage. 1.10.0 added run.soak (--soak). 1.11.0 added level (the conformance level). 1.12.0 added run.network (the trace id, connections, protocol, latency per operation). 1.13.0 added an exchange's expected, and a requirement's notScored.excluded (excluded after an accepted challenge), addedIn then being optional. 1.14.0 added more kinds of an exchange's expected (statusBelow, contentType, body, errorCode, errorStatus, maxItems, itemsWith, distinctIds, headers, headerMatches, ifError), and a failed property check's cases (what replay sends). 1.15.0 added the kinds sameAs, notKept, differsFrom, listsIdOf, lacksNameOf (with renamed) and exactItems of an exchange's expected (values compared with what an earlier request sent or answer gave, a list of a store known to hold enough pets), an exchange's notStated (why it has none), and a cut request body in full as bodyBrotli. 1.16.0 added the kinds headerParsed (a header judged by the suite's parsers, which an exported test embeds) and atOnce (a request sent with others at once) of an exchange's expected.
   */
  formatVersion: string;
  /**
   * The suite that produced the report.
   */
  suite: {
    name: string;
    /**
     * The suite's package version.
     */
    version: string;
    /**
     * Git commit of the suite, or null outside a git checkout. manifest.json says whether its files differed from it.
     */
    commit: string | null;
    score?: SuiteScore;
  };
  interface: {
    name: "Pet Store Service Interface";
    /**
     * The interface version the requirements come from.
     */
    version: "1.0.0";
  };
  target: {
    /**
     * Base address of the server under test (PETSTORE_BASE_URL), ending in /v1.
     */
    baseUrl: string;
    /**
     * True when the suite tested its own bundled reference server.
     */
    embedded: boolean;
    /**
     * Since 1.4.0. The implementation's name (--label, PETSTORE_LABEL); by default the target's host, or "reference server". A matrix of several runs heads its columns with it.
     */
    label?: string;
    /**
     * Since 1.6.0. The Server header of the target's first successful answer, when it sent one: with the base URL, the target's fingerprint in manifest.json.
     */
    server?: string;
  };
  run: RunRecord;
  verdict: Verdict;
  /**
   * One sentence: why this verdict.
   */
  verdictReason: string;
  level?: ConformanceLevel;
  /**
   * Requirements (not checks) per level and outcome.
   */
  counts: {
    MUST: Tally;
    SHOULD: Tally;
  };
  createdPets: {
    /**
     * Pets this run created.
     */
    count: number;
    /**
     * Appears in the name of every pet the run created.
     */
    runTag: string | null;
    /**
     * File beside this one listing their ids.
     */
    ledger: "created-pets.json";
  };
  /**
   * One entry per requirement that ran, in catalogue order.
   */
  requirements: RequirementResult[];
}
/**
 * Since 1.5.0. What the suite itself can see, from suite-score.json, which its own tests (the kill matrix) write and check: of its deliberately broken servers, how many the requirement each breaks catches, with every seed; of its conforming variants, how many pass.
 */
export interface SuiteScore {
  faults: number;
  caught: number;
  variants: number;
  passing: number;
  /**
   * Seeds each fault and variant ran with, the same verdict every time.
   */
  seeds: number;
}
export interface RunRecord {
  startedAt: string;
  finishedAt: string;
  durationMs: number;
  /**
   * The seed of every random input; null only when the run never started.
   */
  seed: number | null;
  /**
   * Command that replays the run with the same seed; the key is read from PETSTORE_API_KEY.
   */
  replay: string | null;
  /**
   * Node.js version, e.g. v20.19.0.
   */
  node: string;
  /**
   * PETSTORE_STRICT: SHOULD findings fail the run too.
   */
  strict: boolean;
  /**
   * PETSTORE_READ_ONLY: no request that could create data was sent; such checks are skipped.
   */
  readOnly: boolean;
  /**
   * PETSTORE_NOW, when the suite's clock was set.
   */
  clock: string | null;
  /**
   * PETSTORE_ONLY / PETSTORE_SKIP. When either is non-empty the run is partial and the verdict covers only the requirements that ran.
   */
  selection: {
    only: string[];
    skip: string[];
  };
  /**
   * True when the run was stopped before every check finished.
   */
  interrupted: boolean;
  /**
   * Failures of the suite itself outside any check (unhandled errors, a test file that did not load).
   */
  errors: string[];
  /**
   * HTTP requests the checks sent, each retry counted; null when the run never started its checks. Since 1.1.0.
   */
  requests?: number | null;
  /**
   * Why the target was not tested (verdict not-tested), in the one line the command printed before exit 3: unreachable, the key refused, a base URL without its version segment, a page that is not JSON, a failing service or gateway; null when the checks ran. Since 1.2.0.
   */
  diagnosis?: string | null;
  /**
   * Since 1.5.0. Findings about the deployment, not the implementation: answers a gateway or proxy in front of the service gave itself (its own page for a URI it will not pass on, a body over its limit), by kind. Clients of this deployment see them; no requirement is judged on them.
   */
  deployment?: DeploymentFinding[];
  targetLost?: TargetLost;
  /**
   * Since 1.12.0. How the run reached the target: the protocol, the connections it opened, and how long each operation took to answer (an observation, never a verdict).
   */
  network?: {
    /**
     * The W3C Trace Context trace id of the run: every check's request carried it in traceparent, with a span id of its own (in the HAR and each exchange's request headers), to find it in the server's logs and traces.
     */
    traceId?: string;
    /**
     * The HTTP version the requests went in, e.g. HTTP/1.1.
     */
    protocol: string;
    /**
     * New connections to the target; null through a proxy (its connections are not the suite's to count).
     */
    connections: {
      /**
       * Every new connection: kept-alive ones, and one for each request that may create and found no connection kept inside the server's Keep-Alive promise.
       */
      opened: number;
      /**
       * Of them, opened ahead of a request that may create and closed unused (see docs/network.md).
       */
      unusedAhead: number;
    } | null;
    /**
     * Per operation (listPets, createPet, getPet; other for what the interface does not define): the answers, their median and 95th percentile time in ms, from the request on the wire to the last byte of the answer.
     */
    latency: {
      [k: string]: {
        answers: number;
        medianMs: number;
        p95Ms: number;
      };
    };
  };
  /**
   * Since 1.10.0. --soak: after the run, the properties that passed, again round after round, each round with the next run seed, until the time asked for was spent (a round begun runs to its end; the first always runs). A property that failed in a round fails its requirement.
   */
  soak?: {
    /**
     * The time asked for (--soak, PETSTORE_SOAK), in milliseconds.
     */
    askedMs: number;
    /**
     * The time the rounds took, in milliseconds.
     */
    spentMs: number;
    /**
     * Rounds begun (each ran to its end).
     */
    rounds: number;
    /**
     * The run seeds of the first and the last round: the run's seed plus the round's number, as PETSTORE_SEED takes them.
     */
    seeds?: {
      first: number;
      last: number;
    };
    /**
     * Property cases (generated inputs) checked in the rounds.
     */
    cases: number;
    /**
     * Each property that passed in the run and failed in a round: its requirement, the round, the run seed that replays it, and when, in milliseconds after the soak began.
     */
    findings: {
      requirement: string;
      round: number;
      seed: number;
      atMs: number;
    }[];
    /**
     * From the last new finding (or, with none, from the soak's start) to its end, in milliseconds: how long the search ran without finding anything new.
     */
    sinceLastFindingMs: number;
    /**
     * The properties not run again after a round, and why: failed, skipped (e.g. its share of PETSTORE_MAX_CREATES spent) or could not decide.
     */
    stopped: {
      property: string;
      round: number;
      reason: string;
    }[];
  };
  /**
   * Since 1.9.0. What the run covered: the catalogued inputs (what mainstream parsers forgive although the interface does not, and the constants the generators draw from), each sent on every run whatever the seed, and the statuses each operation answered.
   */
  coverage?: {
    /**
     * Inputs in the catalogue.
     */
    catalogued: number;
    /**
     * Of them, those this run sent.
     */
    sent: number;
    /**
     * Those it did not send, and why (read-only mode, the write budget, --only or --skip, the target).
     */
    notSent: {
      id: string;
      requirement: string;
      why: string;
    }[];
    /**
     * Per operation and input channel (limit, status, petId, body, a body field, authorization): inputs catalogued and sent.
     */
    channels: {
      operation: string;
      channel: string;
      catalogued: number;
      sent: number;
    }[];
    /**
     * Per operation (listPets, createPet, getPet; other: paths and methods the interface does not define), the answers of each status.
     */
    statuses: {
      [k: string]: {
        [k: string]: number;
      };
    };
  };
  targetPoisoned?: TargetPoisoned;
  server?: RunServer;
  /**
   * Since 1.6.0. The requirement set the verdict was scored against (--requirement-set): requirements added after it ran and are reported, but not scored.
   */
  requirementSet?: {
    /**
     * e.g. 1.0.0+2026.11.26: the interface's version, then the day the set was frozen.
     */
    id: string;
    /**
     * Whether it is the set this release of the suite certifies against (the default).
     */
    current: boolean;
  };
  baseline?: RunBaseline;
  /**
   * Since 1.2.0. The run's requests sent again or given up on, evidence of the infrastructure rather than of the service (every check's, and those outside any check), with how the client paced its requests; null when the run never started its checks.
   */
  retries?: null | RunRetries;
}
export interface DeploymentFinding {
  /**
   * What answered, e.g. 413 Payload Too Large from nginx/1.27.0.
   */
  answer: string;
  /**
   * The first request it answered so, e.g. POST /v1/pets.
   */
  request: string;
  answers: number;
}
/**
 * Since 1.5.0. Present when the target stopped answering during the run: from a request on, every request to the end of the run went without an answer. The requirements left undecided after that are this one fact, said once.
 */
export interface TargetLost {
  /**
   * The first request that got no answer, e.g. GET /v1/pets/%ZZ.
   */
  from: string;
  /**
   * What happened to it, e.g. connection refused.
   */
  why: string;
  /**
   * Requests without an answer from then on.
   */
  requests: number;
  /**
   * The last request that got an answer before that; null when none did.
   */
  lastAnswered: string | null;
  /**
   * The requests whose connection it dropped as it stopped (sent, then closed or reset without an answer), the one it fell on likely among them; every one, those that waited longest first (no more than were in flight at once).
   */
  dropped: string[];
  /**
   * Since 1.8.0. A curl command for each of the first 3 dropped requests, the key written $PETSTORE_API_KEY: to send what it fell on again.
   */
  reproduce?: string[];
}
/**
 * Since 1.5.0. Present when the target turned from answering to failing after it accepted (201) a createPet of the suite: from then on every answer of one operation (listPets until 1.7.0; since, also getPet or createPet) was a 5xx, where that operation had answered 2xx before. A body the interface rejects first (the suite's own input broke the target), then a valid one. The failures that follow are knock-ons of that one.
 */
export interface TargetPoisoned {
  /**
   * The request it accepted, with its body cut short, e.g. POST /v1/pets {"name":"x","categoryId":"7"}.
   */
  accepted: string;
  /**
   * The requirement whose check sent it.
   */
  by: string;
  /**
   * The status the operation answered after it (the first of them).
   */
  status: number;
  /**
   * Answers of the operation after it, every one a 5xx (list answers until 1.7.0).
   */
  lists: number;
  /**
   * Since 1.7.0: the operation that turned failing (listPets when absent).
   */
  operation?: "listPets" | "getPet" | "createPet";
  /**
   * Since 1.7.0: true when the body it accepted was a valid NewPet (the target turned failing after an ordinary write, not on bad input).
   */
  valid?: boolean;
  /**
   * Since 1.9.0: true when the requirement `by` failed on that very request (it kept a client id, or accepted a body the interface rejects): what failed only on the answers after it is blocked by that requirement, not violated.
   */
  cause?: boolean;
}
/**
 * Since 1.5.0. --start (PETSTORE_START): the command that started the server under test for the run; absent without it.
 */
export interface RunServer {
  command: string;
  /**
   * Its output (stdout and stderr, the key written $PETSTORE_API_KEY), relative to the report folder.
   */
  log: string;
  /**
   * Present when it exited while the checks ran: every check after that met a server that was gone.
   */
  exited?: {
    code: number | null;
    signal: string | null;
    /**
     * The last lines it printed.
     */
    lastLines: string[];
    /**
     * The last requests its exit left without an answer (the one it died on among them), e.g. GET /v1/pets/%ZZ.
     */
    unanswered: string[];
  };
}
/**
 * Since 1.3.0. The --baseline (PETSTORE_BASELINE) the run was judged against; absent without one. The exit code then fails only on regressions.
 */
export interface RunBaseline {
  /**
   * As given.
   */
  path: string;
  sha256: string;
  /**
   * A hand-written file (schemas/baseline.schema.json), or an earlier conformance.json whose failed and undecided requirements are known.
   */
  kind: "known-deviations" | "report";
  /**
   * Entries in force.
   */
  entries: number;
  /**
   * Entries past their until date: counted as not in the baseline.
   */
  expired: BaselineEntry[];
  /**
   * Since 1.6.0. --baseline-strict: an entry whose requirements all pass, or that expired, fails the gate too.
   */
  strict?: boolean;
}
/**
 * What it took, beyond one send per request, to get answers: a rate limit or a closing keep-alive connection in front of the service, never a finding against it.
 */
export interface Retries {
  /**
   * Requests sent again after a 429 or 503 with Retry-After.
   */
  count: number;
  /**
   * Answers that asked to wait (429 or 503 with Retry-After), by status: those retried, and those the suite gave up on (retries spent, a longer wait than it honours).
   */
  statuses: {
    [k: string]: number;
  };
  /**
   * The waits the retried answers asked for, summed. The client paused every request for them, overlapping waits once (run.retries.pacing.pausedMs).
   */
  retryAfterMs: number;
  /**
   * GET requests sent again on a fresh connection because the reused one was closed before any byte of the answer.
   */
  resent: number;
}
export interface Pacing {
  /**
   * Answers that were 429 or 503 with Retry-After.
   */
  limited: number;
  /**
   * Time the whole pool stood paused as Retry-After asked, overlapping pauses counted once.
   */
  pausedMs: number;
  /**
   * The slowest pace the client came down to after 429s (requests per second); absent when it never slowed down.
   */
  slowestRate?: number;
  /**
   * The pace at the end (requests per second); absent when unpaced.
   */
  rate?: number;
  /**
   * The pace --rate set (requests per second).
   */
  configuredRate?: number;
  /**
   * From the first request sent to the last answer.
   */
  elapsedMs: number;
}
export interface Tally {
  requirements: number;
  passed: number;
  skipped: number;
  failed: number;
  error: number;
}
/**
 * A request the suite sent and the response that showed the failure.
 */
export interface ReportExchange {
  request: {
    method: string;
    url: string;
    headers: Record<string, string>;
    /**
     * Cut after 200 characters when longer than 4096, its length then written after it: … (N chars).
     */
    body?: string;
    /**
     * Since 1.15.0. With a body cut: the whole body, its key written $PETSTORE_API_KEY like the rest, as UTF-8 compressed with Brotli and written in base64; present when that takes at most 4096 characters (a large body of repeated characters), so that `export` sends it again exactly.
     */
    bodyBrotli?: string;
  };
  /**
   * Absent when no response came (the outcome is then error).
   */
  response?: {
    status: number;
    headers: Record<string, string>;
    /**
     * Cut after 2000 characters.
     */
    body: string;
  };
  /**
   * A curl command; the key is written $PETSTORE_API_KEY.
   */
  reproduce: string;
  /**
   * Since 1.13.0. What the assertion that failed expected of the answer, as data (what `export` writes a test of), when it is one of: the statuses allowed, fields of the JSON body equal to the values sent; since 1.14.0 also the kinds below. Each holds of every answer a correct server may give.
   */
  expected?: {
    /**
     * @minItems 1
     */
    status?: number[];
    fields?: {
      [k: string]: string | number | boolean | null;
    };
    /**
     * Since 1.14.0. A status below this one (500: no server error).
     */
    statusBelow?: number;
    /**
     * Since 1.14.0. Content-Type application/json, parameters allowed.
     */
    contentType?: "application/json";
    body?: JsonShape;
    /**
     * Since 1.14.0. An Error body whose code is a non-empty string.
     */
    errorCode?: true;
    /**
     * Since 1.14.0. An Error body whose status member is the HTTP status.
     */
    errorStatus?: true;
    /**
     * Since 1.14.0. Of a 2xx answer: a JSON array of at most this many items.
     */
    maxItems?: number;
    /**
     * Since 1.14.0. Of a 2xx answer: a JSON array whose every item has these members equal to these values (a filter sent).
     */
    itemsWith?: {
      [k: string]: string;
    };
    /**
     * Since 1.14.0. Of a 2xx answer: no id written twice in the body, compared as digits.
     */
    distinctIds?: true;
    /**
     * Since 1.14.0. Response headers by lower-case name: present (true) or absent (false).
     */
    headers?: {
      [k: string]: boolean;
    };
    /**
     * Since 1.14.0. Response headers by lower-case name, each present with a value (trimmed) matching this regular expression (JavaScript syntax).
     */
    headerMatches?: {
      [k: string]: string;
    };
    /**
     * Since 1.14.0. The others are judged only when the answer is an error (4xx or 5xx): the rule is about every error answer.
     */
    ifError?: true;
    /**
     * Since 1.15.0. Of a 2xx answer: members of the JSON body equal to the same member of an earlier JSON body of the finding (a create's answer before its read-back, the request that sent the value), compared as written: an integer digit for digit whatever its spelling (beyond 2^53 too), a string code point for code point.
     */
    sameAs?: {
      [k: string]: BodyMember;
    };
    /**
     * Since 1.15.0. Of a 2xx answer: members of the JSON body that are no form a number type keeps the integer sent in the same member of that body in (as sent, rounded to a double, cut to 53 or 32 bits, as a signed 32-bit integer, as a string of digits): an id the client chose is not honoured.
     */
    notKept?: {
      [k: string]: BodyMember;
    };
    /**
     * Since 1.15.0. Of a 2xx answer: members of the JSON body unequal to the same member of that body, compared as sameAs compares (the id another create was given).
     */
    differsFrom?: {
      [k: string]: BodyMember;
    };
    listsIdOf?: BodyMember;
    lacksNameOf?: BodyMember;
    /**
     * Since 1.15.0. The run's tag in the names it sent, which an exported test writes afresh (the same length) in every request body it sends: a store keeps the pets of earlier runs, which must not be taken for this one's.
     */
    renamed?: string;
    /**
     * Since 1.15.0. Of a 2xx answer: a JSON array of exactly this many items (counting those of the status the query filters by, when it does). The check knew the store held at least that many pets the query selects: an exported test first creates the pets a list of the same query with limit 100 does not show, as pets are never removed.
     */
    exactItems?: number;
    /**
     * Since 1.16.0. Response headers by lower-case name, each judged by one of the suite's parsers (src/wire/headers.ts), whose code an exported test embeds: where a pattern of the text would state more, or less, than the check.
     */
    headerParsed?: {
      [k: string]: HeaderTest;
    };
    /**
     * Since 1.16.0. The request was sent with others at once, this many in all: an exported test sends as many copies of it at once and asserts each answer (a server failing under load answers each alone well).
     */
    atOnce?: number;
  };
  /**
   * Since 1.15.0. Why the assertion that failed on this answer recorded no expected: what a test sending the finding's requests again one after another could not state soundly (what `export` says of the finding).
   */
  notStated?: string;
  /**
   * Since 1.4.0. Present when the run wrote a HAR (--har, PETSTORE_HAR; manifest.json names the file): the index in its log.entries of the send this exchange shows (the last, when the request was retried or resent).
   */
  harEntry?: number;
}
/**
 * Since 1.14.0. The part of a JSON Schema a test with no validator checks (derived from schemas/): a JSON type (integer: a number with no fraction), required members, the shapes of members and items, allowed values.
 */
export interface JsonShape {
  type?: "object" | "array" | "string" | "integer" | "number" | "boolean" | "null";
  required?: string[];
  properties?: {
    [k: string]: JsonShape;
  };
  items?: JsonShape;
  enum?: string[];
}
/**
 * Since 1.15.0. A JSON body of the same finding an answer is compared with: of the exchange `back` exchanges before this one in the evidence (0: this one), the request's body or the response's.
 */
export interface BodyMember {
  back: number;
  of: "request" | "response";
}
/**
 * Since 1.3.0. Present when an entry of run.baseline covers the requirement and it ran. known: it failed or could not be decided, as the baseline expects (outcome keeps what happened; no regression). fixed: it passed; the entry should be removed from the baseline.
 */
export interface BaselineMark {
  status: "known" | "fixed";
  /**
   * The entry's id, area or glob.
   */
  entry: string;
  reason: string;
  link?: string;
  until?: string;
}
export interface CheckResult {
  /**
   * Test name; starts with the requirement id.
   */
  name: string;
  kind: "requirement" | "property";
  outcome: OutcomeKind;
  durationMs: number;
  message?: string;
  /**
   * Since 1.2.0: a passed check's cases not run.
   */
  note?: string;
  /**
   * Since 1.14.0. Only on a failed property check: the failing case of each property it ran, so that `replay` sends that case alone (with the report's seed), not the property's every input.
   *
   * @minItems 1
   */
  cases?: PropertyCase[];
}
export interface PropertyCase {
  /**
   * The property's label: with the run's seed, its fast-check seed.
   */
  label: string;
  /**
   * The index of the failing example (an input checked on every seed).
   */
  example?: number;
  /**
   * fast-check's path to the failing input (its run, then its shrinks): what fc.check({ seed, path }) draws again.
   */
  path?: string;
}

/**
 * entry._petstore: who sent the request.
 */
export interface HarSender {
  /**
   * The requirement whose check sent it; empty when it was sent outside any check.
   *
   * @maxItems 1
   */
  requirements: string[];
  /**
   * The name of the check (it starts with the requirement id); null outside any check.
   */
  check: string | null;
  /**
   * Why no check is named.
   */
  note?: string;
  /**
   * The index in log.entries of this request's previous send: this one is its retry (429 or 503 with Retry-After) or its resend (a stale connection).
   */
  retryOf?: number;
}

/**
 * postData._truncated and content._truncated: the body was cut; `comment` says so in words.
 */
export interface HarCut {
  /**
   * The body's size in bytes.
   */
  originalSize: number;
  /**
   * The bytes kept (64 KiB).
   */
  cap: number;
}

/**
 * response._error: why no answer came (timeout, reset, interrupted); the response's status is then 0.
 */
export type HarError = string;
