// The Error rules (errors.body, errors.status-field, errors.content-type) hold for every error
// answer of the run, not only for the cases those rules provoke: examples, properties, the model
// and malformed inputs alike. Each answer is judged as it arrives and only the failures are kept,
// grouped by status and body shape, so that a framework's default page makes one finding with a
// few examples (and the check that sent each), however many answers it spoiled.
import { errorAnswerRoot, isJsonMediaType } from './assert.js';
import { answeredByFront, type ApiResponse } from '../wire/wire.js';
import type { DeploymentFinding } from '../data/generated/report-types.js';
import type { RequirementId } from '../data/generated/requirement-ids.js';
import { exchangeOf, type Exchange } from '../wire/evidence.js';
import { detach, exactInteger, show } from '../wire/json.js';
import { requirementOf, Violation, type CaseCause } from './outcomes.js';
import { joined, msg, words, type Message } from './message.js';
import { wire } from '../wire/redact.js';
import { validate } from '../data/schemas.js';

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
const RULES: Record<ErrorRule, { expected: Message; judge: (res: ApiResponse) => Message | undefined }> = {
  'errors.body': {
    expected: msg`a JSON Error body (code a non-empty string, message a string, status an integer)`,
    judge: (res) => {
      if (res.truncated) return msg`a body larger than the suite reads (${res.text.length} bytes read)`;
      if (res.jsonError !== undefined)
        return res.text.length === 0 ? msg`an empty body` : msg`a body that is not JSON: ${wire(excerpt(res.text))}`;
      const result = validate('Error', res.json);
      // The validator's words point into the answer (its paths): a quote of it.
      if (!result.valid) return msg`${show(res.json, 160)}, where ${wire(result.problems.join('; '))}`;
      return bodyOf(res)?.code === '' ? msg`code ""` : undefined;
    },
  },
  'errors.status-field': {
    expected: msg`an Error body whose status is the HTTP status`,
    judge: (res) => {
      const status = bodyOf(res)?.status;
      return exactInteger(status) === String(res.status) ? undefined : msg`status ${show(status)} in the body`;
    },
  },
  'errors.content-type': {
    expected: msg`Content-Type application/json`,
    judge: (res) =>
      isJsonMediaType(res.headers['content-type'])
        ? undefined
        : msg`Content-Type ${wire(res.headers['content-type'] ?? '(none)')}`,
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
          ? msg`{${wire(Object.keys(body).sort().slice(0, 6).join(', '))}}`
          : msg`JSON ${kind}`;
  return msg`${res.status} ${type ? wire(type) : msg`no Content-Type`}, ${shape}`;
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
  senders: Set<string>;
  /** Another Error rule that the first answer of this shape breaks at its root (see rootRule). */
  rootRule?: ErrorRule;
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
  const senders = [...new Set([...g.senders].map(requirementOf))].filter(
    (id) => !(ERROR_RULES as readonly string[]).includes(id),
  );
  return { ...(senders.length > 0 ? { sentBy: senders } : {}), ...(g.rootRule ? { rules: [g.rootRule] } : {}) };
}

const EXAMPLES_PER_GROUP = 3;
const GROUPS_SHOWN = 8;

/** Every error answer of a run, judged as it arrives; only failures are kept (a bounded few per shape). */
export class ErrorAnswers {
  /** Error answers judged by the rules. */
  judged = 0;
  /** Error answers attributed to infrastructure in front of the service: not the service's, not judged. */
  infrastructure = 0;
  /** What the gateway in front answered itself (its 4xx pages), in the order first seen. */
  deployment(): DeploymentFinding[] {
    return [...this.front.values()].map((d) => ({ ...d }));
  }

  /** Error answers whose body only a SHOULD judges (the HTTP layer's answer to a malformed URI). */
  exempt = 0;
  private readonly failures = new Map<ErrorRule, Map<string, Group>>(ERROR_RULES.map((r) => [r, new Map()]));

  /** The deployment's own answers (a gateway's 4xx page), by what answered: findings about the deployment. */
  private readonly front = new Map<string, DeploymentFinding>();

  /** `sentBy`: the check whose request it answers. */
  record(res: ApiResponse, sentBy: string, exempt = false): void {
    if (res.status < 400) return;
    if (res.infrastructure !== undefined) {
      this.infrastructure++;
      const seen = this.front.get(res.infrastructure);
      if (seen) seen.answers++;
      else if (answeredByFront(res)) {
        const { pathname, search } = new URL(res.request.url);
        this.front.set(res.infrastructure, {
          answer: res.infrastructure,
          request: `${res.request.method} ${pathname}${search}`,
          answers: 1,
        });
      }
      return;
    }
    if (exempt) {
      this.exempt++;
      return;
    }
    this.judged++;
    for (const rule of ERROR_RULES) {
      const got = RULES[rule].judge(res);
      if (got !== undefined) this.add(rule, res, got, sentBy);
    }
  }

  private add(rule: ErrorRule, res: ApiResponse, got: Message, check: string): void {
    // A requirement's own check by its id; a property by its id and title.
    const sentBy = / \(property\) /.test(check) ? check : (/^[a-z][A-Za-z]*\.\S+(?= )/.exec(check)?.[0] ?? check);
    const groups = this.failures.get(rule) as Map<string, Group>;
    const shape = shapeOf(res);
    let group = groups.get(shape);
    if (!group) {
      const root = rootRule(rule, res);
      groups.set(
        shape,
        (group = { shape, count: 0, got, examples: [], senders: new Set(), ...(root ? { rootRule: root } : {}) }),
      );
    }
    group.count++;
    if (group.examples.length < EXAMPLES_PER_GROUP && !group.senders.has(sentBy)) {
      const url = new URL(res.request.url);
      group.examples.push({
        // A sender is a check's name (or the run): the suite's own words.
        what: msg`${wire(`${res.request.method} ${url.pathname}${url.search}`)} (sent by ${words(sentBy)})`,
        exchange: exchangeOf(res),
      });
    }
    group.senders.add(sentBy);
  }

  /** Throws a Violation naming each shape of error answer that broke the rule; returns when none did. */
  verdict(rule: ErrorRule): void {
    const groups = [...(this.failures.get(rule) as Map<string, Group>).values()].sort(
      (a, b) => b.count - a.count || a.shape.localeCompare(b.shape),
    );
    if (groups.length === 0) return;
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
