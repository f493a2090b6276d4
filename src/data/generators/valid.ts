// Valid values walked from the schemas: any NewPet, listPets' limit and status from openapi.json.
import fc from 'fast-check';
import { readSchemaFile, schemaFiles, SCHEMA_NAMES, type SchemaName } from '../schemas.js';
import type { NewPet, PetStatus } from '../generated/schema-types.js';
import { int64 } from './int64.js';
import { unicodeText } from './unicode.js';

/** The part of JSON Schema the contract files use. */
export interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: readonly unknown[];
  required?: readonly string[];
  properties?: Readonly<Record<string, Schema>>;
  minimum?: number;
  maximum?: number;
  default?: unknown;
}

/** Follows `X.json` (schema files) and `#/components/schemas/X` (openapi.json) references. */
export function resolve(schema: Schema): Schema {
  if (schema.$ref === undefined) return schema;
  const name = /(\w+)(?:\.json)?$/.exec(schema.$ref)?.[1];
  if (!SCHEMA_NAMES.includes(name as SchemaName)) throw new Error(`generators: cannot resolve $ref ${schema.$ref}`);
  return resolve(schemaFiles[name as SchemaName] as Schema);
}

/** A schema construct no generator knows yet: stop, naming it. */
export function unsupported(schema: Schema, where: string): never {
  throw new Error(`generators: no arbitrary for ${where}: ${JSON.stringify(schema)}; extend src/data/generators/`);
}

/** Arbitraries to use for named properties instead of the schema-derived ones. */
export type FieldArbitraries = Readonly<Record<string, fc.Arbitrary<unknown>>>;

function arbitraryFor(schema: Schema, where: string, fields: FieldArbitraries): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  if (s.enum) return fc.constantFrom(...s.enum);
  switch (s.type) {
    case 'object': {
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, sub] of Object.entries(s.properties ?? {}))
        model[key] = fields[key] ?? arbitraryFor(sub, `${where}.${key}`, fields);
      return fc.record(model, { requiredKeys: [...(s.required ?? [])], noNullPrototype: true });
    }
    case 'string':
      return unicodeText();
    case 'integer':
      if (s.format === 'int64') return int64();
      return fc.integer({ min: s.minimum ?? -(2 ** 31), max: s.maximum ?? 2 ** 31 - 1 });
    default:
      return unsupported(s, where);
  }
}

/**
 * Any valid NewPet: every property of the schema, the optional ones present or absent; names over
 * the whole Unicode range (1..200 code points), categoryId over the whole int64 range.
 */
export function newPet(fields: FieldArbitraries = {}): fc.Arbitrary<NewPet> {
  return arbitraryFor(schemaFiles.NewPet as Schema, 'NewPet', fields) as fc.Arbitrary<NewPet>;
}

// listPets query values, from the OpenAPI parameters.

interface Parameter {
  name: string;
  in: string;
  schema: Schema;
}

const listParameters =
  (readSchemaFile('openapi.json') as { paths: Record<string, Record<string, { parameters?: Parameter[] }>> }).paths[
    '/pets'
  ]?.get?.parameters ?? [];

function queryParameter(name: string): Schema {
  const p = listParameters.find((x) => x.name === name && x.in === 'query');
  if (!p) throw new Error(`generators: openapi.json has no listPets query parameter "${name}"`);
  return resolve(p.schema);
}

const limitSchema = queryParameter('limit');
if (limitSchema.type !== 'integer' || limitSchema.minimum === undefined || limitSchema.maximum === undefined)
  unsupported(limitSchema, 'limit');

/** The `limit` parameter's bounds and default, as openapi.json states them. */
export const LIMIT = Object.freeze({
  min: limitSchema.minimum,
  max: limitSchema.maximum,
  default: typeof limitSchema.default === 'number' ? limitSchema.default : limitSchema.maximum,
});

/** Any allowed `limit`, its bounds and default weighted in. */
export function validLimit(): fc.Arbitrary<number> {
  return fc.oneof(fc.integer({ min: LIMIT.min, max: LIMIT.max }), fc.constantFrom(LIMIT.min, LIMIT.default, LIMIT.max));
}

/** The `status` parameter's schema (its enumeration). */
export const statusSchema = queryParameter('status');

/** Any allowed `status` filter. */
export function statusFilter(): fc.Arbitrary<PetStatus> {
  return arbitraryFor(statusSchema, 'status', {}) as fc.Arbitrary<PetStatus>;
}
