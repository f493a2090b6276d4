// The product file of a certification (`certify --product FILE`): which implementation, by whom,
// and how to run it. JSON, or YAML (.yaml, .yml; read by the yaml package), validated against
// schemas/product.schema.json; the submission holds it as JSON whichever it was given in, so a
// reviewer's bot reads one grammar.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { firstError, publishedValidator } from '../report/baseline.js';

/**
 * yaml, loaded only for a product file in YAML: bundled with the command line, a static import
 * would load it at every run's start (some 14 ms) for `certify` alone.
 */
function parseYaml(text: string): unknown {
  return (createRequire(import.meta.url)('yaml') as typeof import('yaml')).parse(text);
}

export const PRODUCT_SCHEMA = 'product.schema.json';

export interface Product {
  name: string;
  version: string;
  vendor: string;
  url: string;
  contact: string;
  run: string;
}

/** The product file read and checked: the product, or what is wrong with it in one line. */
export function readProduct(path: string): Product | string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    return `${path}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'cannot be read'}`;
  }
  const yaml = /\.ya?ml$/i.test(path);
  let data: unknown;
  try {
    data = yaml ? parseYaml(text) : JSON.parse(text);
  } catch {
    return `${path}: not ${yaml ? 'YAML' : 'JSON'} (the product file is JSON, or YAML named .yaml; see schemas/${PRODUCT_SCHEMA})`;
  }
  const validate = publishedValidator(PRODUCT_SCHEMA);
  if (!validate(data)) return `${path}: does not match schemas/${PRODUCT_SCHEMA}: ${firstError(validate.errors)}`;
  return data as Product;
}
