// The part of a schema in schemas/ that a test with no validator can check (an exported test, see
// src/report/exported-test.ts): JSON types, required members and enums, derived from the schema
// files, never re-typed. Weaker than the schema (formats are left out): a correct answer passes it.
import { schemaFiles, SCHEMA_NAMES, type SchemaName } from './schemas.js';
import type { JsonShape } from '../wire/evidence.js';

export type { JsonShape };

type Schema = Record<string, unknown>;

/** A $ref between the schema files, e.g. "NewPet.json" or the full $id. */
function resolved(ref: string): Schema {
  const name = SCHEMA_NAMES.find((n) => ref === `${n}.json` || ref.endsWith(`/${n}.json`));
  if (!name) throw new Error(`no schema file for $ref ${ref}`);
  return schemaFiles[name];
}

function shapeOf(schema: Schema): JsonShape {
  const parts = [schema, ...((schema.allOf as Schema[] | undefined) ?? [])].map((s) =>
    typeof s.$ref === 'string' ? resolved(s.$ref) : s,
  );
  // allOf and $ref merge: every part's requirements hold at once.
  const merged = parts.length > 1 ? parts.slice(1).map(shapeOf) : [];
  const shape: JsonShape = {};
  for (const part of [...merged, ownShape(parts[0] as Schema)]) {
    if (part.type) shape.type = part.type;
    if (part.enum) shape.enum = part.enum;
    if (part.items) shape.items = part.items;
    if (part.required) shape.required = [...(shape.required ?? []), ...part.required];
    if (part.properties) shape.properties = { ...shape.properties, ...part.properties };
  }
  return shape;
}

function ownShape(schema: Schema): JsonShape {
  if (typeof schema.$ref === 'string') return shapeOf(resolved(schema.$ref));
  const properties = schema.properties as Record<string, Schema> | undefined;
  return {
    ...(typeof schema.type === 'string' ? { type: schema.type as JsonShape['type'] } : {}),
    ...(Array.isArray(schema.enum) ? { enum: schema.enum as string[] } : {}),
    ...(Array.isArray(schema.required) ? { required: schema.required as string[] } : {}),
    ...(properties
      ? { properties: Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, shapeOf(v)])) }
      : {}),
  };
}

const shapes = new Map<SchemaName | 'PetList', JsonShape>();

/** The shape of a schema's answers; PetList: an array of Pets. Derived once per name: every answer asks. */
export function jsonShape(name: SchemaName | 'PetList'): JsonShape {
  let shape = shapes.get(name);
  if (!shape) {
    shape = name === 'PetList' ? { type: 'array', items: shapeOf(schemaFiles.Pet) } : shapeOf(schemaFiles[name]);
    shapes.set(name, shape);
  }
  return shape;
}
