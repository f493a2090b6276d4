// The Error rules (errors.body, errors.status-field, errors.content-type) hold for every error
// answer of the run, not only for the cases those rules provoke: examples, properties, the model
// and malformed inputs alike. Each answer is judged as it arrives and only the failures are kept,
// grouped by status and body shape, so that a framework's default page makes one finding with a
// few examples (and the check that sent each), however many answers it spoiled.
import { isObject } from './blame.js';
import { isJsonMediaType } from '../../src/checks/assert.js';
import { urlOf, type ApiResponse } from '../../src/wire/requests.js';
import type { RequirementId } from '../../src/data/generated/requirement-ids.js';
import { exchangeOf, type Exchange, type Expectation } from '../../src/wire/evidence.js';
import { jsonShape } from '../../src/data/json-shape.js';
import { detach, exactInteger, show } from '../../src/wire/json.js';
import { Violation, type CaseCause } from '../../src/checks/outcomes.js';
import { joined, msg, words, type Message } from '../../src/checks/message.js';
import { senderOf, type AnswerFrom, type RunObserver } from '../../src/checks/requirement.js';
import { quoted } from '../../src/wire/redact.js';
import { validate } from '../../src/data/schemas.js';

export const ERROR_RULES = [
  'errors.body',
  'errors.status-field',
  'errors.content-type',
] as const satisfies readonly RequirementId[];
export type ErrorRule = (typeof ERROR_RULES)[number];

const excerpt = (text: string) => detach(text.slice(0, 121)).replace(/\s+/g, ' ').trim().slice(0, 120);

const bodyOf = (res: ApiResponse): Record<string, unknown> | undefined =>
  res.json !== null && typeof res.json === 'object' && !Array.isArray(res.json)
    ? (res.json as Record<string, unknown>)
    : undefined;

/** Each rule: what it expects of an error answer, and what was wrong with one (undefined: nothing). */
const RULES: Record<
  ErrorRule,
  { expected: Message; judge: (res: ApiResponse) => Message | undefined; as: Expectation }
> = {
  'errors.body': {
    expected: msg`a JSON Error body (code a non-empty string, message a string, status an integer)`,
    as: { body: jsonShape('Error'), errorCode: true, ifError: true },
    judge: (res) => {
      if (res.truncated) return msg`a body larger than the suite reads (${res.text.length} bytes read)`;
      if (res.jsonError !== undefined)
        return res.text.length === 0 ? msg`an empty body` : msg`a body that is not JSON: ${quoted(excerpt(res.text))}`;
      const result = validate('Error', res.json);
      // The validator's words point into the answer (its paths): a quote of it.
      if (!result.valid) return msg`${show(res.json, 160)}, where ${quoted(result.problems.join('; '))}`;
      return bodyOf(res)?.code === '' ? msg`code ""` : undefined;
    },
  },
  'errors.status-field': {
    expected: msg`an Error body whose status is the HTTP status`,
    as: { errorStatus: true, ifError: true },
    judge: (res) => {
      const status = bodyOf(res)?.status;
      return exactInteger(status) === String(res.status) ? undefined : msg`status ${show(status)} in the body`;
    },
  },
  'errors.content-type': {
    expected: msg`Content-Type application/json`,
    as: { contentType: 'application/json', ifError: true },
    judge: (res) =>
      isJsonMediaType(res.headers['content-type'])
        ? undefined
        : msg`Content-Type ${quoted(res.headers['content-type'] ?? '(none)')}`,
  },
};

/** Status and body shape, e.g. `404 text/html, not JSON` or `405 application/json {detail}`. */
export function shapeOf(res: ApiResponse): Message {
  const type = res.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  const body = bodyOf(res);
  // A JavaScript type's name, chosen by the suite: never the body's text.
  const kind = words(Array.isArray(res.json) ? 'array' : res.json === null ? 'null' : typeof res.json);
  const shape =
    res.text.length === 0
      ? msg`empty body`
      : res.jsonError !== undefined
        ? msg`not JSON`
        : body
          ? msg`{${quoted(Object.keys(body).sort().slice(0, 6).join(', '))}}`
          : msg`JSON ${kind}`;
  return msg`${res.status} ${type ? quoted(type) : msg`no Content-Type`}, ${shape}`;
}

interface Example {
  what: Message;
  exchange: Exchange;
}

interface Group {
  shape: Message;
  count: number;
  /** What was wrong with the first answer of this shape. */
  got: Message;
  /** A few answers, each from another check where possible. */
  examples: Example[];
  /** The checks that sent them (see senderOf), each with its requirement. */
  senders: Map<string, RequirementId | undefined>;
  /** Another Error rule that the first answer of this shape breaks at its root (see rootRule). */
  rootRule?: ErrorRule;
}

/**
 * What an error answer is at its root, which decides the Error rule its faults are named under:
 * JSON at all (else errors.body's finding, whatever its Content-Type), and an Error but for its
 * status member (then errors.status-field's): for the rules over the run and expectErrorBody alike.
 */
export function errorAnswerRoot(res: ApiResponse): { json: boolean; onlyStatus: boolean } {
  const json = res.jsonError === undefined && !res.truncated;
  return {
    json,
    onlyStatus: json && isObject(res.json) && validate('Error', { ...res.json, status: res.status }).valid,
  };
}

/**
 * The Error rule at the root of an answer's failing another: a body that is not JSON, or not an
 * Error beyond its status member, is errors.body's finding (its Content-Type and status member
 * follow from it); an Error whose only fault is its status member, errors.status-field's.
 */
function rootRule(rule: ErrorRule, res: ApiResponse): ErrorRule | undefined {
  const { json, onlyStatus: statusAlone } = errorAnswerRoot(res);
  // An empty code is errors.body's finding too (the schema allows it, the interface does not).
  const onlyStatus = statusAlone && bodyOf(res)?.code !== '';
  if (rule === 'errors.body') return onlyStatus ? 'errors.status-field' : undefined;
  if (rule === 'errors.content-type') return json ? undefined : 'errors.body';
  return onlyStatus ? undefined : 'errors.body';
}

/**
 * What a shape's answers show beyond the rule (see CaseCause): the requirements whose checks sent
 * them (the Error rules' own provoked cases aside: each of the three sends them), and another
 * Error rule that may be at their root.
 */
function causeOf(g: Group): CaseCause {
  const senders = [...new Set([...g.senders.values()].flatMap((id) => id ?? []))].filter(
    (id) => !(ERROR_RULES as readonly string[]).includes(id),
  );
  return { ...(senders.length > 0 ? { sentBy: senders } : {}), ...(g.rootRule ? { rules: [g.rootRule] } : {}) };
}

const EXAMPLES_PER_GROUP = 3;
const GROUPS_SHOWN = 8;

/** One Error rule over every error answer of a run, judged as it arrives; only failures are kept (a bounded few per shape). */
export class ErrorAnswers implements RunObserver {
  /** Error answers judged by the rule. */
  judged = 0;
  /** Error answers attributed to infrastructure in front of the service: not the service's, not judged. */
  infrastructure = 0;
  /** Error answers whose body only a SHOULD judges (the HTTP layer's answer to a malformed URI). */
  exempt = 0;
  private readonly failures = new Map<string, Group>();

  constructor(private readonly rule: ErrorRule) {}

  observe(res: ApiResponse, from: AnswerFrom): void {
    if (res.status < 400) return;
    if (res.infrastructure !== undefined) {
      this.infrastructure++;
      return;
    }
    if (from.exempt || from.unscored) {
      this.exempt++;
      return;
    }
    this.judged++;
    const got = RULES[this.rule].judge(res);
    if (got !== undefined) this.add(res, got, from);
  }

  private add(res: ApiResponse, got: Message, from: AnswerFrom): void {
    const sentBy = senderOf(from);
    const shape = shapeOf(res);
    let group = this.failures.get(shape);
    if (!group) {
      const root = rootRule(this.rule, res);
      this.failures.set(
        shape,
        (group = { shape, count: 0, got, examples: [], senders: new Map(), ...(root ? { rootRule: root } : {}) }),
      );
    }
    group.count++;
    if (group.examples.length < EXAMPLES_PER_GROUP && !group.senders.has(sentBy)) {
      const url = urlOf(res.request.url);
      group.examples.push({
        // A sender is a check's name (or the run): the suite's own words.
        what: msg`${quoted(`${res.request.method} ${url.pathname}${url.search}`)} (sent by ${words(sentBy)})`,
        exchange: exchangeOf(res, RULES[this.rule].as),
      });
    }
    group.senders.set(sentBy, from.check?.id);
  }

  /**
   * Throws a Violation naming each shape of error answer that broke the rule; when none did, notes
   * the answers it left to infrastructure.
   */
  judge(): string | undefined {
    const { rule } = this;
    const groups = [...this.failures.values()].sort((a, b) => b.count - a.count || a.shape.localeCompare(b.shape));
    if (groups.length === 0)
      return this.infrastructure > 0
        ? `${this.infrastructure} error answer(s) attributed to infrastructure in front of the service were not judged`
        : undefined;
    const count = groups.reduce((n, g) => n + g.count, 0);
    const lines = groups.slice(0, GROUPS_SHOWN).map(
      (g) =>
        msg`- ${g.shape}: ${g.count} answer(s) from ${g.senders.size} check(s), expected ${RULES[rule].expected}; got ${g.got}; e.g. ${joined(
          g.examples.map((e) => e.what),
          msg`; `,
        )}`,
    );
    if (groups.length > GROUPS_SHOWN) lines.push(msg`- and ${groups.length - GROUPS_SHOWN} more shape(s)`);
    const infra =
      this.infrastructure > 0
        ? msg` (${this.infrastructure} answer(s) attributed to infrastructure were not judged)`
        : msg``;
    throw new Violation(
      msg`${count} of the run's ${this.judged} error answers break it, in ${groups.length} shape(s)${infra}:\n${joined(lines, msg`\n`)}`,
      groups.slice(0, GROUPS_SHOWN).flatMap((g) => g.examples.map((e) => e.exchange)),
      groups.map(causeOf),
    );
  }
}
