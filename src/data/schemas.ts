// Validators compiled once from the files in schemas/, the single source of truth.
import { readFileSync } from 'node:fs';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { holdsNoBigInt, isInt64, isShared } from '../wire/json.js';
import * as generated from './generated/validators.js';
import { packageRoot } from '../config/package-root.js';

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

// Compiled by ajv once, in npm run generate (scripts/generate.ts): a run loads the code, compiling nothing.
const compiled = generated as unknown as Record<`validate${SchemaName | 'PetList'}`, ValidateFunction>;

export interface SchemaResult {
  valid: boolean;
  /** One line per problem, e.g. `/0/id must match format "int64"`. */
  problems: string[];
}

function describe(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`.trim());
}

/** Verdicts on values parseJson shared (a text answered many times over): each judged once per schema. */
const judged = new WeakMap<object, Map<string, SchemaResult>>();

/** Validates a losslessly parsed value against a named schema (or `PetList`). */
export function validate(schema: SchemaName | 'PetList', value: unknown): SchemaResult {
  const kept = value !== null && typeof value === 'object' && isShared(value) ? value : undefined;
  const known = kept && judged.get(kept)?.get(schema);
  if (known) return known;
  const fn = compiled[`validate${schema}`];
  const valid = fn(validationView(value)) as boolean;
  const result: SchemaResult = Object.freeze({ valid, problems: valid ? [] : describe(fn.errors) });
  if (kept) judged.set(kept, (judged.get(kept) ?? new Map()).set(schema, result));
  return result;
}

/** The enumeration, read from the schema rather than re-typed. */
export const PET_STATUSES = Object.freeze([...(schemaFiles.PetStatus.enum as string[])]);
