// Validators compiled once from the files in schemas/, the single source of truth.
import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import * as ajvFormats from 'ajv-formats';
import { holdsNoBigInt, isInt64 } from '../wire/json.js';
import { packageRoot } from '../config/package-root.js';

// ajv-formats is CommonJS; under NodeNext its function is the module's default export.
const addFormats = ajvFormats.default as unknown as typeof ajvFormats.default.default;

export const SCHEMA_NAMES = ['PetStatus', 'NewPet', 'Pet', 'Error'] as const;
export type SchemaName = (typeof SCHEMA_NAMES)[number];

export const schemaDir = new URL('schemas/', packageRoot);

export function readSchemaFile(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(file, schemaDir), 'utf8')) as Record<string, unknown>;
}

export const schemaFiles: Readonly<Record<SchemaName, Record<string, unknown>>> = Object.freeze(
  Object.fromEntries(SCHEMA_NAMES.map((name) => [name, readSchemaFile(`${name}.json`)])) as Record<
    SchemaName,
    Record<string, unknown>
  >,
);

/**
 * A value where every bigint became a number that ajv judges the same way under `format: int64`:
 * what holds no bigint is the value itself (a list of pets is copied only where a pet holds one),
 * found without walking the list twice.
 */
function validationView(value: unknown): unknown {
  if (typeof value === 'bigint') return isInt64(value) ? 0 : 2 ** 53;
  if (value === null || typeof value !== 'object' || holdsNoBigInt(value)) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const seen = typeof item === 'object' || typeof item === 'bigint' ? validationView(item) : item;
      if (seen !== item) copy ??= value.slice(0, i);
      copy?.push(seen);
    }
    return copy ?? value;
  }
  for (const k in value) {
    const item: unknown = (value as Record<string, unknown>)[k];
    if ((typeof item === 'object' || typeof item === 'bigint') && validationView(item) !== item)
      return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, validationView(v)]));
  }
  return value;
}

// validateSchema false: checking our own files against the 2020-12 meta-schema compiles it first, a
// tenth of a run's start; self-tests/units/schemas.test.ts checks them instead.
const ajv = new Ajv2020({ allErrors: true, strict: true, validateSchema: false });
addFormats(ajv);
// JSON numbers reach us as safe integers or bigint (see json.ts); anything else is outside int64.
ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
for (const name of SCHEMA_NAMES) ajv.addSchema(schemaFiles[name]);

const compiled = new Map<string, ValidateFunction>();
const compiledObjects = new WeakMap<object, ValidateFunction>();
function validatorFor(schema: SchemaName | object): ValidateFunction {
  // The same schema object again (PetList on every list) is found without serialising it.
  const known = typeof schema === 'string' ? undefined : compiledObjects.get(schema);
  if (known) return known;
  const key = typeof schema === 'string' ? schema : JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    validate =
      typeof schema === 'string'
        ? (ajv.getSchema(schemaFiles[schema].$id as string) as ValidateFunction)
        : ajv.compile(schema);
    compiled.set(key, validate);
  }
  if (typeof schema !== 'string') compiledObjects.set(schema, validate);
  return validate;
}

const PET_LIST = { type: 'array', items: { $ref: 'https://petstore-conformance.dev/schemas/Pet.json' } };

export interface SchemaResult {
  valid: boolean;
  /** One line per problem, e.g. `/0/id must match format "int64"`. */
  problems: string[];
}

function describe(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`.trim());
}

/** Validates a losslessly parsed value against a named schema (or `PetList`). */
export function validate(schema: SchemaName | 'PetList', value: unknown): SchemaResult {
  const fn = validatorFor(schema === 'PetList' ? PET_LIST : schema);
  const valid = fn(validationView(value)) as boolean;
  return { valid, problems: valid ? [] : describe(fn.errors) };
}

/** The enumeration, read from the schema rather than re-typed. */
export const PET_STATUSES = Object.freeze([...(schemaFiles.PetStatus.enum as string[])]);
