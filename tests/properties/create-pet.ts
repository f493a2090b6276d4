// Properties of createPet over generated bodies: any valid NewPet is stored exactly, and any body
// that breaks one rule of the schema is refused with 400 and creates nothing.
import fc from 'fast-check';
import { expectNothingCreated } from '../create-pet-rejects.js';
import { expectStatus } from '../../src/checks/assert.js';
import { expectError, expectErrorBody } from '../rules/assert.js';
import type { ApiResponse } from '../../src/wire/requests.js';
import type { NewPet } from '../../src/data/generated/schema-types.js';
import {
  codePoints,
  invalidBodies,
  nameGap,
  newPet,
  plainText,
  ruleKey,
  type InvalidBody,
} from '../../src/data/generators.js';
import { exactInteger, show } from '../../src/wire/json.js';
import { checkProperty, type Trial } from '../../src/checks/property.js';
import { because, type Property, type RequirementId } from '../../src/checks/requirement.js';
import type { RunContext } from '../../src/checks/context.js';
import { PET_STATUSES } from '../../src/data/schemas.js';
import { CREATE_WEIGHTS, taggedBody } from './shared.js';
import { expectStoredAsSent } from '../pets.js';
import { createdRules, isGapName, keyRefused } from '../rules/blame.js';
import { quoted } from '../../src/wire/redact.js';
import { msg, words, type Message } from '../../src/checks/message.js';

/** Creates the pet (its name tagged), giving the creation back when none was made. */
async function create(ctx: RunContext, trial: Trial, generated: NewPet): Promise<{ body: NewPet; res: ApiResponse }> {
  const body = { ...generated, name: trial.tagged(generated.name) };
  const res = await ctx.api.createPet(body);
  return { body, res };
}

/** createPet.unicode's property. */
export const unicodeProperty: Property = {
  title: 'Any name over the whole Unicode range is echoed and read back code point for code point',
  check: (ctx) =>
    checkProperty(ctx, {
      label: msg`uni`,
      // Only the name varies (status always sent): a categoryId or status fault is its own rule's,
      // met on every seed by its examples. The example, a plain name every server accepts, makes
      // sure one pet is created on every seed, whatever names the seed draws.
      arbitrary: newPet({ categoryId: fc.constant(1) }).map((p): NewPet => ({ ...p, status: 'available' })),
      examples: [{ name: 'example', categoryId: 1, status: 'available' }],
      creates: { perRun: 1, weight: CREATE_WEIGHTS.unicode },
      show: (p) => `${show(p)}, name ${codePoints(p.name)}`,
      predicate: async (generated, trial, ctx) => {
        const { body, res } = await create(ctx, trial, generated);
        // The interface leaves name limits open: an unusual name may be refused, with the Error body.
        const gap = nameGap(body.name);
        if (res.status === 400 && gap) {
          expectErrorBody(res);
          return;
        }
        // A name in a gap of the interface is createPet.gaps' to judge (empty, padded, very long).
        const refused = res.status < 200 || res.status >= 300;
        const rules: RequirementId[] = refused && isGapName(body.name) ? ['createPet.gaps'] : createdRules(res, body);
        because(rules, () =>
          expectStatus(
            res,
            201,
            gap
              ? // Why the suite's own name may be refused: its words on a name it generated.
                msg`or 400 with an Error body, as the name may be refused: ${words(gap)}`
              : msg`a valid NewPet with a name of ordinary text`,
          ),
        );
        await expectStoredAsSent(ctx, body, res, ['name'], msg`a name of ${[...body.name].length} code points`);
      },
    }),
};

/** createPet.int64-extremes' property. */
export const int64Property: Property = {
  title: 'Any categoryId in the int64 range is echoed and read back digit for digit',
  check: (ctx) =>
    checkProperty(ctx, {
      label: msg`i64`,
      // Only categoryId varies (status always sent): a name or status fault is its own rule's, met on every seed by its examples.
      arbitrary: newPet({ name: fc.constant('int64') }).map((p): NewPet => ({ ...p, status: 'available' })),
      creates: { perRun: 1, weight: CREATE_WEIGHTS.int64 },
      show: (p) => show(p),
      predicate: async (generated, trial, ctx) => {
        const { body, res } = await create(ctx, trial, generated);
        because(createdRules(res, body), () => expectStatus(res, 201, msg`a valid NewPet`));
        await expectStoredAsSent(
          ctx,
          body,
          res,
          ['categoryId'],
          msg`categoryId ${quoted(String(exactInteger(body.categoryId)))}`,
        );
      },
    }),
};

/** Which requirement each rule of the NewPet schema belongs to; every rule the generators derive must be here. */
const INVALID: readonly { requirement: RequirementId; rules: readonly string[]; label: Message; title: string }[] = [
  {
    requirement: 'createPet.missing-name',
    rules: ['missing:name'],
    label: msg`nm`,
    title: 'Any otherwise valid body without name is answered 400 with an Error body',
  },
  {
    requirement: 'createPet.missing-category',
    rules: ['missing:categoryId'],
    label: msg`nc`,
    title:
      'Any otherwise valid body without categoryId is answered 400 with an Error body, and creates nothing where a complete list can show it',
  },
  {
    requirement: 'createPet.name-type',
    rules: ['type:name'],
    label: msg`tn`,
    title: 'Any body whose name is not a string is answered 400 with an Error body',
  },
  {
    requirement: 'createPet.category-type',
    rules: ['type:categoryId', 'fraction:categoryId'],
    label: msg`tc`,
    title:
      'Any body whose categoryId is not an integer (wrong JSON type or a fraction) is answered 400 with an Error body, ' +
      'and creates nothing where a complete list can show it',
  },
  {
    requirement: 'createPet.category-range',
    rules: ['int64-range:categoryId'],
    label: msg`rc`,
    title:
      'Any body whose categoryId lies beyond int64 is answered 400 with an Error body, and creates nothing where a complete list can show it',
  },
  {
    requirement: 'createPet.status-enum',
    rules: ['type:status', 'enum-case:status', 'enum-spelling:status'],
    label: msg`es`,
    title:
      'Any body whose status is off the enumeration (by case, spelling or type) is answered 400 with an Error body, ' +
      'and creates nothing where a complete list can show it',
  },
  {
    requirement: 'createPet.body-not-object',
    rules: ['not-json', 'not-object'],
    label: msg`bo`,
    title: 'Any body that is not a JSON object is answered 400 with an Error body',
  },
];

const rules = invalidBodies(newPet({ name: plainText() }));
for (const r of rules) {
  if (!INVALID.some((p) => p.rules.includes(ruleKey(r))))
    throw new Error(`tests/properties/create-pet.ts: no requirement for the NewPet rule "${ruleKey(r)}" (${r.says})`);
}

const invalid = new Map<RequirementId, Property>(
  INVALID.map(({ requirement, rules: keys, label, title }) => [
    requirement,
    {
      title,
      check: (ctx) =>
        checkProperty(ctx, {
          label,
          arbitrary: fc.oneof(...rules.filter((r) => keys.includes(ruleKey(r))).map((r) => r.arbitrary)),
          creates: { perRun: 0, weight: CREATE_WEIGHTS.byMistake },
          show: (b: InvalidBody) => `${b.rule.says}: ${'raw' in b.body ? show(b.body.raw) : show(b.body.json)}`,
          predicate: async (generated, trial, ctx) => {
            const { body, name } = taggedBody(generated.body, trial);
            // Urgent: the property's other cases wait for the one creation it may make by mistake.
            const res = await ctx.api.createPet(null, { body, urgent: true });
            // The rule the generators broke, in their words (src/data/generators/invalid.ts): the suite's own.
            because(keyRefused(res), () => expectError(res, 400, words(generated.rule.says)));
            if (name === undefined || !('json' in body)) return;
            // The list of the body's status, when it names a valid one: where a created pet would be.
            const status = (body.json as { status?: unknown }).status;
            const filter: [string, string][] =
              typeof status === 'string' && PET_STATUSES.includes(status) ? [['status', status]] : [];
            await expectNothingCreated(ctx, [{ res, marker: { name } }], [[...filter, ['limit', '100']]]);
          },
        }),
    },
  ]),
);

/** The property of a requirement in INVALID: any body breaking one of its rules is refused. */
export function invalidBodyProperty(id: RequirementId): Property {
  const property = invalid.get(id);
  if (!property) throw new Error(`tests/properties/create-pet.ts: ${id} has no row in INVALID`);
  return property;
}
