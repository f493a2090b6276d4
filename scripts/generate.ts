// Derives src/generated/schema-types.ts from schemas/*.json, and .env.example from the settings
// table in src/config.ts. Run: npm run generate. Self-tests fail when a committed file is stale.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compile, type JSONSchema } from 'json-schema-to-typescript';
import { envExample } from '../src/config.js';
import { readSchemaFile, SCHEMA_NAMES, schemaDir, schemaFiles } from '../src/schemas.js';

export const typesFile = new URL('../src/generated/schema-types.ts', import.meta.url);

/** int64 values are parsed as number | bigint (see src/json.ts); tell the generator so. */
function markInt64(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(markInt64);
  if (node === null || typeof node !== 'object') return node;
  const out = Object.fromEntries(Object.entries(node).map(([k, v]) => [k, markInt64(v)]));
  return out.format === 'int64' ? { ...out, tsType: 'Int64' } : out;
}

export async function generateTypes(): Promise<string> {
  const options = { bannerComment: '', cwd: fileURLToPath(schemaDir), declareExternallyReferenced: false, additionalProperties: false, format: true };
  const parts: string[] = [];
  for (const name of SCHEMA_NAMES) parts.push(await compile(markInt64(schemaFiles[name]) as JSONSchema, name, options));
  // One entry of the known-deviations file given to --baseline.
  const baseline = readSchemaFile('baseline.schema.json') as { $defs: { entry: JSONSchema } };
  parts.push(await compile(baseline.$defs.entry, 'BaselineEntry', options));
  return [
    '// Generated from schemas/*.json by scripts/generate.ts. Do not edit by hand.',
    "import type { Int64 } from '../json.js';",
    '',
    ...parts,
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(typesFile, await generateTypes());
  writeFileSync(new URL('../.env.example', import.meta.url), envExample());
  console.log('wrote src/generated/schema-types.ts and .env.example');
}
