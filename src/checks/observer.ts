// What a rule over the whole run is told: each answer, and who asked for it. Below the run context
// (which hands answers on) and the requirement model (which carries the rules).
import type { ApiResponse } from '../wire/requests.js';
import type { RequirementId } from '../data/generated/requirement-ids.js';

/** A requirement's own check, or one of its properties. */
export type CheckKind = 'requirement' | 'property';

/** A requirement's rule over every answer of the run (see Requirement.observer). */
export interface RunObserver {
  /** One answer of the run, as it arrives, with who asked for it. */
  observe(answer: ApiResponse, from: AnswerFrom): void;
  /** Throws a Violation when an answer it was handed broke the rule; else may return a note for the pass. */
  judge(): string | undefined | void;
}

/** The check a request is sent for, as the run context and the HAR know it. */
export interface CheckRef {
  /** None for a check that is no catalogue requirement's (a self-test's). */
  id?: RequirementId;
  kind: CheckKind;
  /** Test name: the requirement id, then the statement or the property's title. */
  name: string;
}

/** Who a request was sent for, as an observer is told (see RunObserver). */
export interface AnswerFrom {
  /** The check that sent it; none: the run's own requests. */
  check?: CheckRef;
  /** Its error answers are judged only by a SHOULD (an HTTP layer may answer them first). */
  exempt?: true;
  /** Sent for the store's population, which the checks share. */
  population?: true;
  /** Its check's requirement is not in the requirement set scored (--requirement-set): no rule over the run judges it. */
  unscored?: true;
}

/** A sender in a finding's words: a requirement's own check by its id, a property by its name, else the run. */
export const senderOf = (from: AnswerFrom): string =>
  from.check ? (from.check.kind === 'property' ? from.check.name : (from.check.id ?? from.check.name)) : 'the run';
