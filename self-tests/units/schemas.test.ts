// The contract files are valid and agree: the OpenAPI document references the schema files,
// and the schema files validate exactly what the interface describes.
import { readdirSync, readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, test } from 'vitest';
import { parseJson } from '../../src/wire/json.js';
import { LIMIT } from '../../src/reference-server/handler.js';
import { PET_STATUSES, SCHEMA_NAMES, schemaDir, schemaFiles, validate } from '../../src/data/schemas.js';
import {
  generateReportTypes,
  generateRequirementIds,
  generateTypes,
  generateValidators,
  generateHeaderParsers,
  headerParsersFile,
  readmeFile,
  readmeWithCounts,
  reportTypesFile,
  requirementIdsFile,
  typesFile,
  validatorsFile,
} from '../../scripts/generate.js';
import { catalogue } from '../../tests/catalogue.js';
import type { Requirement, RequirementId } from '../../src/checks/requirement.js';

const openapi = JSON.parse(readFileSync(new URL('openapi.json', schemaDir), 'utf8'));

/** The OpenAPI document with each external schema file inlined under components, for validators that read one file. */
function bundled(): unknown {
  const inline = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(inline);
    if (node === null || typeof node !== 'object') return node;
    const ref = (node as { $ref?: string }).$ref;
    const file = ref?.match(/^(\w+)\.json$/)?.[1];
    if (file) return { $ref: `#/components/schemas/${file}` };
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, inline(v)]));
  };
  const doc = inline(openapi) as { components: { schemas: Record<string, unknown> } };
  for (const name of SCHEMA_NAMES) {
    const { $id: _id, $schema: _s, ...schema } = schemaFiles[name];
    doc.components.schemas[name] = inline(schema);
  }
  return doc;
}

describe('schemas/', () => {
  test('openapi.json is a valid OpenAPI 3.1 document once its schema files are inlined', async () => {
    const result = await new Validator().validate(bundled() as Parameters<Validator['validate']>[0]);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  test('every schema file has an $id and the 2020-12 dialect, and openapi.json references each one', () => {
    for (const name of SCHEMA_NAMES) {
      expect(schemaFiles[name].$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(schemaFiles[name].$id).toBe(`https://petstore-conformance.dev/schemas/${name}.json`);
      expect(openapi.components.schemas[name]).toEqual({ $ref: `${name}.json` });
    }
  });

  test('every schema file in schemas/ is valid against its dialect', () => {
    const ajv = new Ajv2020({ strict: false });
    for (const file of readdirSync(schemaDir).filter((f) => f.endsWith('.json') && f !== 'openapi.json')) {
      const schema = JSON.parse(readFileSync(new URL(file, schemaDir), 'utf8')) as object;
      expect(ajv.validateSchema(schema), `${file}: ${ajv.errorsText()}`).toBe(true);
    }
  });

  test('openapi.json describes the three operations as the interface does', () => {
    const list = openapi.paths['/pets'].get;
    const create = openapi.paths['/pets'].post;
    const get = openapi.paths['/pets/{petId}'].get;
    expect([list.operationId, create.operationId, get.operationId]).toEqual(['listPets', 'createPet', 'getPet']);
    expect(get.deprecated).toBe(true);
    expect(list.deprecated ?? false).toBe(false);
    expect(Object.keys(list.responses)).toEqual(['200', '401']);
    expect(Object.keys(create.responses)).toEqual(['201', '400', '401']);
    expect(Object.keys(get.responses)).toEqual(['200', '401', '404']);
    const limit = list.parameters.find((p: { name: string }) => p.name === 'limit');
    expect(limit.schema).toEqual({ type: 'integer', minimum: LIMIT.min, maximum: LIMIT.max, default: LIMIT.default });
    expect(openapi.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(openapi.security).toEqual([{ bearerAuth: [] }]);
    expect(openapi.info.version).toBe('1.0.0');
  });

  test('PetStatus is exactly available, pending, sold', () => {
    expect(PET_STATUSES).toEqual(['available', 'pending', 'sold']);
  });

  test.each([
    ['a minimal NewPet', 'NewPet', '{"name":"Rex","categoryId":1}', true],
    ['a NewPet with each int64 extreme', 'NewPet', '{"name":"Rex","categoryId":-9223372036854775808}', true],
    ['categoryId 2^63-1', 'NewPet', '{"name":"Rex","categoryId":9223372036854775807}', true],
    ['categoryId 2^63, beyond int64', 'NewPet', '{"name":"Rex","categoryId":9223372036854775808}', false],
    ['categoryId -2^63-1, beyond int64', 'NewPet', '{"name":"Rex","categoryId":-9223372036854775809}', false],
    ['a fractional categoryId', 'NewPet', '{"name":"Rex","categoryId":1.5}', false],
    ['categoryId as a string', 'NewPet', '{"name":"Rex","categoryId":"5"}', false],
    ['a NewPet without name', 'NewPet', '{"categoryId":1}', false],
    ['a NewPet without categoryId', 'NewPet', '{"name":"Rex"}', false],
    ['a status off by case', 'NewPet', '{"name":"Rex","categoryId":1,"status":"Available"}', false],
    ['a Pet without id', 'Pet', '{"name":"Rex","categoryId":1}', false],
    ['a Pet with an id beyond 2^53', 'Pet', '{"id":9007199254740993,"name":"Rex","categoryId":1}', true],
    ['a Pet with extra properties', 'Pet', '{"id":1,"name":"Rex","categoryId":1,"colour":"red"}', true],
    ['an Error', 'Error', '{"code":"x","message":"y","status":400}', true],
    ['an Error without code', 'Error', '{"message":"y","status":400}', false],
    ['an Error with a string status', 'Error', '{"code":"x","message":"y","status":"400"}', false],
  ] as const)('%s is %s', (_what, schema, text, valid) => {
    expect(validate(schema, parseJson(text)).valid).toBe(valid);
  });

  test('src/data/generated/schema-types.ts is what scripts/generate.ts derives (run npm run generate)', async () => {
    expect(readFileSync(typesFile, 'utf8')).toBe(await generateTypes());
  });

  test('src/data/generated/report-types.ts is what scripts/generate.ts derives from the report schema (run npm run generate)', async () => {
    expect(readFileSync(reportTypesFile, 'utf8')).toBe(await generateReportTypes());
  });

  test('src/data/generated/validators.ts is what scripts/generate.ts compiles from schemas/ (run npm run generate)', () => {
    expect(readFileSync(validatorsFile, 'utf8')).toBe(generateValidators());
  });

  test('src/data/generated/header-parsers.ts is src/wire/headers.ts as JavaScript (run npm run generate)', () => {
    expect(readFileSync(headerParsersFile, 'utf8')).toBe(generateHeaderParsers());
  });

  test('src/data/generated/requirement-ids.ts is what scripts/generate.ts derives from the id registry (run npm run generate)', () => {
    expect(readFileSync(requirementIdsFile, 'utf8')).toBe(generateRequirementIds());
  });

  test("README.md's counts are the catalogue's (run npm run generate)", () => {
    const readme = readFileSync(readmeFile, 'utf8');
    expect(readme).toBe(readmeWithCounts(readme));
    // A catalogue one SHOULD short counts one fewer, and an area the table lacks is named.
    const fewer = catalogue.filter((r) => r.id !== 'auth.challenge');
    const count = (level: string, area = '') => fewer.filter((r) => r.level === level && r.id.startsWith(area)).length;
    expect(readmeWithCounts(readme, fewer)).toContain(
      `| \`auth.*\` | Authentication | ${count('MUST', 'auth.')} | ${count('SHOULD', 'auth.')} |`,
    );
    expect(readmeWithCounts(readme, fewer)).toContain(
      `${fewer.length} requirements (${count('MUST')} MUST, ${count('SHOULD')} SHOULD)`,
    );
    expect(readmeWithCounts(readme)).not.toBe(readmeWithCounts(readme, fewer));
    const stray = { ...(catalogue[0] as Requirement), id: 'pets.new' as RequirementId };
    expect(() => readmeWithCounts(readme, [...catalogue, stray])).toThrow(/add a row to the counts table for pets/);
  });
});
