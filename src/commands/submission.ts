// The submission folder `certify` leaves: the reports, the HAR and the badge the run wrote, the
// product file, a README that says how to reproduce the run, the manifest (now listing the product
// file and the README, and the product file's SHA-256) signed, and the public key that verifies it.
import { createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { digestFile, type Manifest } from '../report/manifest.js';
import { MANIFEST_FILE } from '../report/reporter.js';
import type { Results } from '../report/results.js';
import { reportLevel } from '../report/verdict.js';
import type { Product } from './product.js';
import { signManifest, SIGNATURE_FILE } from './sign.js';

export const PRODUCT_FILE = 'product.json';
export const PUBLIC_KEY_FILE = 'certifier.pub';
const README = 'README.md';

const quoted = (arg: string) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`);

function readme(m: Manifest, p: Product, results: Results, argv: readonly string[], because: string): string {
  const v = m.suite.version;
  const command = [
    'npx',
    `petstore-conformance@${v}`,
    'certify',
    '--product',
    PRODUCT_FILE,
    '--key',
    'KEY.pem',
    ...argv,
  ];
  return [
    `# ${p.name} ${p.version}: Pet Store conformance submission`,
    '',
    `${p.vendor} · <${p.url}> · contact: ${p.contact}`,
    '',
    `**${because ? `NOT CERTIFIED: ${because}` : `Certified ${reportLevel(results)}`}** against requirement set ` +
      `${m.requirementSet?.id ?? '?'} (interface ${m.interfaceVersion}), run finished ${results.run.finishedAt}, seed ${results.run.seed}.`,
    '',
    '## Reproduce the run',
    '',
    `1. Start the implementation: ${p.run}`,
    `2. Take the suite version ${v}: SHA-256 of its files \`${m.suite.sha256}\` (${m.suite.files} files, commit ${m.suite.commit ?? 'none'}),`,
    `   recomputed in its folder by \`${m.suite.digestCommand}\`.`,
    '3. Run, with your own Ed25519 key and the API key in PETSTORE_API_KEY:',
    '',
    '```sh',
    command.map(quoted).join(' '),
    '```',
    '',
    '## Check this folder without running anything',
    '',
    '```sh',
    `npx petstore-conformance@${v} verify-submission . --pub KEY.pub   # the certifier's public key; ${PUBLIC_KEY_FILE} is the one it says it used`,
    '```',
    '',
    `Files: ${m.reports.map((r) => r.file).join(', ')}, ${README}, ${MANIFEST_FILE}, ${SIGNATURE_FILE}, ${PUBLIC_KEY_FILE}.`,
    '',
  ].join('\n');
}

export interface SubmissionInput {
  product: Product;
  key: KeyObject;
  /** The run's flags, as the README's reproduction repeats them. */
  argv: readonly string[];
  results: Results;
  /** Why it is not a certification ('' when it is). */
  because: string;
}

/** Completes the run's report folder into a submission, and signs it. */
export function writeSubmission(dir: string, s: SubmissionInput): void {
  // As JSON, whichever grammar it came in (a YAML product file is read by readProduct).
  writeFileSync(join(dir, PRODUCT_FILE), `${JSON.stringify(s.product, null, 2)}\n`);
  const manifest = JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8')) as Manifest;
  const product = digestFile(join(dir, PRODUCT_FILE));
  manifest.product = { file: PRODUCT_FILE, sha256: product.sha256 };
  manifest.reports.push({ file: PRODUCT_FILE, ...product });
  writeFileSync(join(dir, README), readme(manifest, s.product, s.results, s.argv, s.because));
  manifest.reports.push({ file: README, ...digestFile(join(dir, README)) });
  writeFileSync(join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  signManifest(dir, s.key);
  writeFileSync(join(dir, PUBLIC_KEY_FILE), String(createPublicKey(s.key).export({ type: 'spki', format: 'pem' })));
}
