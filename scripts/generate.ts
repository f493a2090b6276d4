// Derives src/data/generated/schema-types.ts from the Pet schemas and the baseline's, the report types
// (src/data/generated/report-types.ts) from schemas/conformance-report.schema.json and
// schemas/har-extension.schema.json, the RequirementId type (src/data/generated/requirement-ids.ts)
// from the id registry self-tests/catalogue/requirement-ids.json, the Pet schemas' validators
// (src/data/generated/validators.ts: ajv's standalone code, so a run compiles nothing at its start),
// the header parsers as JavaScript for exported tests (src/data/generated/header-parsers.ts),
// and .env.example from the settings table in src/config/settings.ts. Run: npm run generate.
// Self-tests fail when a committed file is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standalone from 'ajv/dist/standalone/index.js';
import { _ } from 'ajv/dist/compile/codegen/index.js';
import { transformSync } from 'esbuild';
import { compile, type JSONSchema } from 'json-schema-to-typescript';
import { envExample } from '../src/config/config.js';
import { readSchemaFile, SCHEMA_NAMES, schemaDir, schemaFiles, type SchemaName } from '../src/data/schemas.js';
import { areaOf, type Requirement } from '../src/checks/requirement.js';
import { catalogue } from '../tests/catalogue.js';

export const typesFile = new URL('../src/data/generated/schema-types.ts', import.meta.url);
export const reportTypesFile = new URL('../src/data/generated/report-types.ts', import.meta.url);
export const validatorsFile = new URL('../src/data/generated/validators.ts', import.meta.url);
export const headerParsersFile = new URL('../src/data/generated/header-parsers.ts', import.meta.url);
export const requirementIdsFile = new URL('../src/data/generated/requirement-ids.ts', import.meta.url);
export const readmeFile = new URL('../README.md', import.meta.url);

const COUNTS = /(<!-- counts: npm run generate writes the numbers -->\n)([\s\S]*?)(<!-- \/counts -->)/;

/**
 * The README with its counts (the total, and MUST and SHOULD per area) taken from the catalogue
 * between its markers; the areas' words stay as written. An area the table lacks is an error.
 */
export function readmeWithCounts(readme: string, requirements: readonly Requirement[] = catalogue): string {
  const block = COUNTS.exec(readme);
  if (!block) throw new Error('README.md: no counts markers');
  const count = (level: string, area?: string) =>
    requirements.filter((r) => r.level === level && (area === undefined || areaOf(r.id) === area)).length;
  const areas = [...new Set(requirements.map((r) => areaOf(r.id)))];
  const rows = new Set<string>();
  const body = (block[2] as string)
    .replace(/^\d+ requirements \(\d+ MUST, \d+ SHOULD\)/m, () => {
      const [must, should] = [count('MUST'), count('SHOULD')];
      return `${must + should} requirements (${must} MUST, ${should} SHOULD)`;
    })
    .replace(/^\| `([A-Za-z]+)\.\*` \| ([^|]*) \| \d+ \| \d+ \|/gm, (_row, area: string, section: string) => {
      rows.add(area);
      return `| \`${area}.*\` | ${section} | ${count('MUST', area)} | ${count('SHOULD', area)} |`;
    });
  const missing = areas.filter((a) => !rows.has(a));
  if (missing.length) throw new Error(`README.md: add a row to the counts table for ${missing.join(', ')}`);
  return readme.replace(COUNTS, (_all, open: string, _old, close: string) => `${open}${body}${close}`);
}

/** The RequirementId type: every id of the registry, so a misspelt id does not compile. */
export function generateRequirementIds(): string {
  const registry = JSON.parse(
    readFileSync(new URL('../self-tests/catalogue/requirement-ids.json', import.meta.url), 'utf8'),
  ) as {
    sets: { id: string; adds: Record<string, string>; exclusions?: { id: string; issue: string; date: string }[] }[];
  };
  const ids = registry.sets.flatMap((s) => Object.keys(s.adds));
  return [
    '// Generated from self-tests/catalogue/requirement-ids.json by scripts/generate.ts. Do not edit by hand.',
    '',
    '/** The id of a requirement of the catalogue (retired ids are not). */',
    'export type RequirementId =',
    ...ids.map((id, i) => `  | '${id}'${i === ids.length - 1 ? ';' : ''}`),
    '',
    '/** A requirement excluded from a set after an accepted challenge (issue URL, day), by a patch release of the set. */',
    'export interface Exclusion {',
    '  readonly id: string;',
    '  readonly issue: string;',
    '  readonly date: string;',
    '}',
    '',
    '/** The requirement sets, oldest first: each certifies its own ids and those of every set before it. */',
    `export const REQUIREMENT_SETS: readonly { id: string; adds: readonly string[]; exclusions: readonly Exclusion[] }[] = ${JSON.stringify(
      registry.sets.map(({ id, adds, exclusions = [] }) => ({ id, adds: Object.keys(adds), exclusions })),
    )};`,
    '',
    '/** The set this release certifies against: the last. */',
    `export const CURRENT_REQUIREMENT_SET = '${registry.sets[registry.sets.length - 1]?.id ?? ''}';`,
    '',
  ].join('\n');
}

/** int64 values are parsed as number | bigint (see src/wire/json.ts); tell the generator so. */
function markInt64(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(markInt64);
  if (node === null || typeof node !== 'object') return node;
  const out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, markInt64(v)]));
  return out.format === 'int64' ? { ...out, tsType: 'Int64' } : out;
}

const options = { bannerComment: '', cwd: fileURLToPath(schemaDir), additionalProperties: false, format: true };

export async function generateTypes(): Promise<string> {
  const parts: string[] = [];
  for (const name of SCHEMA_NAMES)
    parts.push(
      await compile(markInt64(schemaFiles[name]) as JSONSchema, name, {
        ...options,
        declareExternallyReferenced: false,
      }),
    );
  // One entry of the known-deviations file given to --baseline.
  const baseline = readSchemaFile('baseline.schema.json') as { $defs: { entry: JSONSchema } };
  parts.push(await compile(baseline.$defs.entry, 'BaselineEntry', { ...options, declareExternallyReferenced: false }));
  return [
    '// Generated from schemas/*.json by scripts/generate.ts. Do not edit by hand.',
    "import type { Int64 } from '../../wire/json.js';",
    '',
    ...parts,
  ].join('\n');
}

type Node = Record<string, unknown>;
/** The report's $defs, by the names the code knows them by. */
const REPORT_DEFS: Record<string, string> = {
  requirement: 'RequirementResult',
  exchange: 'ReportExchange',
  retries: 'Retries',
  tally: 'Tally',
};
/** $defs that are types of their own elsewhere: a $ref to one is written as that type. */
const REPORT_TS_TYPES: Record<string, string> = {
  headers: 'Record<string, string>',
  baselineEntry: 'BaselineEntry',
  outcome: 'OutcomeKind',
};

/**
 * The report schema as json-schema-to-typescript reads it best: a $ref's sibling annotations
 * dropped (with them it declares a copy of the type, Retries1), $defs named as the code names
 * them, and titles on the inline objects the code passes around.
 */
function reportSchemaForTypes(): JSONSchema {
  const prepare = (n: unknown): unknown => {
    if (Array.isArray(n)) return n.map(prepare);
    if (n === null || typeof n !== 'object') return n;
    const node = n as Node;
    if (typeof node.$ref === 'string') {
      const def = node.$ref.replace('#/$defs/', '');
      if (def in REPORT_TS_TYPES) return { tsType: REPORT_TS_TYPES[def] };
      const more = Object.keys(node).filter(
        (k) => !['$ref', 'description', 'type', 'unevaluatedProperties'].includes(k),
      );
      if (more.length === 0) return { $ref: `#/$defs/${REPORT_DEFS[def] ?? def}` };
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, prepare(v)]));
  };
  const s = prepare(readSchemaFile('conformance-report.schema.json')) as Node & {
    $defs: Record<string, Node>;
    properties: Record<string, Node>;
  };
  s.$defs = Object.fromEntries(
    Object.entries(s.$defs)
      .filter(([k]) => !(k in REPORT_TS_TYPES))
      .map(([k, v]) => [REPORT_DEFS[k] ?? k, v]),
  );
  const run = s.properties.run as Node & { properties: Record<string, Node> };
  // run.retries: null, or the Retries with the pacing (an allOf reads as Retries & { pacing }).
  const [none, withPacing] = (run.properties.retries as { oneOf: Node[] }).oneOf as [Node, Node];
  const { $ref: _ref, unevaluatedProperties: _closed, ...pacing } = withPacing;
  (pacing.properties as Record<string, Node>).pacing = {
    ...(pacing.properties as Record<string, Node>).pacing,
    title: 'Pacing',
  };
  run.properties.retries = {
    ...run.properties.retries,
    oneOf: [
      none,
      { title: 'RunRetries', allOf: [{ $ref: '#/$defs/Retries' }, { ...pacing, additionalProperties: false }] },
    ],
  };
  s.title = 'Results';
  (s.properties.verdict as Node).title = 'Verdict';
  (s.properties.level as Node).title = 'ConformanceLevel';
  run.title = 'RunRecord';
  (run.properties.baseline as Node).title = 'RunBaseline';
  (run.properties.server as Node).title = 'RunServer';
  (run.properties.targetLost as Node).title = 'TargetLost';
  (run.properties.targetPoisoned as Node).title = 'TargetPoisoned';
  ((s.properties.suite as Node & { properties: Record<string, Node> }).properties.score as Node).title = 'SuiteScore';
  ((run.properties.deployment as Node & { items: Node }).items as Node).title = 'DeploymentFinding';
  const requirement = s.$defs.RequirementResult as { properties: Record<string, Node & { items?: Node }> };
  (requirement.properties.baseline as Node).title = 'BaselineMark';
  const check = requirement.properties.checks?.items as Node & { properties: Record<string, Node & { items: Node }> };
  check.title = 'CheckResult';
  (check.properties.cases?.items as Node).title = 'PropertyCase';
  return s as JSONSchema;
}

/**
 * The validators of the Pet schemas and of a list of Pets, as ajv compiles them (every error, strict),
 * written out as code once, here: a run loads them without loading or running ajv's compiler.
 */
export function generateValidators(): string {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    code: { source: true, esm: true, formats: _`INT64_FORMATS` },
  });
  // int64 as the suite reads JSON numbers (src/wire/json.ts): a safe integer, or a bigint that
  // validationView (src/data/schemas.ts) made a number judged the same way. The file below says the same.
  ajv.addFormat('int64', { type: 'number', validate: Number.isSafeInteger });
  for (const name of SCHEMA_NAMES) ajv.addSchema(schemaFiles[name]);
  ajv.addSchema({ $id: 'PetList', type: 'array', items: { $ref: schemaFiles.Pet.$id as string } });
  const refs = Object.fromEntries(
    [...SCHEMA_NAMES, 'PetList'].map((name) => [
      `validate${name}`,
      (schemaFiles[name as SchemaName]?.$id as string) ?? name,
    ]),
  );
  return [
    '// Generated from schemas/*.json by scripts/generate.ts (ajv standalone code). Do not edit by hand.',
    '// @ts-nocheck',
    "const INT64_FORMATS = { int64: { type: 'number', validate: Number.isSafeInteger } };",
    standalone.default(ajv, refs),
    '',
  ].join('\n');
}

/**
 * src/wire/headers.ts as plain JavaScript, its exports made local: an exported test that judges a
 * header by a parser embeds this text, so it parses as the check did, from the same source.
 */
export function generateHeaderParsers(): string {
  const source = readFileSync(new URL('../src/wire/headers.ts', import.meta.url), 'utf8');
  const { code } = transformSync(source, { loader: 'ts', format: 'esm', target: 'node20', legalComments: 'none' });
  const local = code.replace(/^export /gm, '');
  return [
    '// Generated from src/wire/headers.ts by scripts/generate.ts. Do not edit by hand.',
    '',
    '/** The header parsers as JavaScript with no export: what an exported test embeds (src/report/exported-test.ts). */',
    `export const HEADER_PARSERS = ${JSON.stringify(local)};`,
    '',
  ].join('\n');
}

export async function generateReportTypes(): Promise<string> {
  const report = { ...options, declareExternallyReferenced: true, ignoreMinAndMaxItems: true };
  const types = await compile(reportSchemaForTypes(), 'Results', report);
  // The HAR's custom fields: one type per $def, named by its title.
  const har = readSchemaFile('har-extension.schema.json') as { $defs: Record<string, JSONSchema & { title: string }> };
  const harTypes = await Promise.all(Object.values(har.$defs).map((def) => compile(def, def.title, report)));
  return [
    '// Generated from schemas/conformance-report.schema.json and schemas/har-extension.schema.json by',
    '// scripts/generate.ts. Do not edit by hand.',
    "import type { OutcomeKind } from '../../checks/outcomes.js';",
    "import type { BaselineEntry } from './schema-types.js';",
    '',
    types,
    ...harTypes,
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(typesFile, await generateTypes());
  writeFileSync(reportTypesFile, await generateReportTypes());
  writeFileSync(requirementIdsFile, generateRequirementIds());
  writeFileSync(validatorsFile, generateValidators());
  writeFileSync(headerParsersFile, generateHeaderParsers());
  writeFileSync(new URL('../.env.example', import.meta.url), envExample());
  writeFileSync(readmeFile, readmeWithCounts(readFileSync(readmeFile, 'utf8')));
  console.log(
    'wrote src/data/generated/schema-types.ts, src/data/generated/report-types.ts, src/data/generated/requirement-ids.ts, ' +
      'src/data/generated/validators.ts, ' +
      '.env.example and the counts in README.md',
  );
}
