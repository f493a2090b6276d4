// A certification run and its submission (issue 44, part 2): `certify` refuses each weaker
// configuration with one line, writes a signed submission folder, and `verify-submission` passes
// it with one ok line per check and fails the one check each tampering breaks.
import { generateKeyPairSync } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test, vi } from 'vitest';
import { main } from '../../src/commands/cli.js';
import { certifyCommand } from '../../src/commands/certify.js';
import { readProduct } from '../../src/commands/product.js';
import { signManifest } from '../../src/commands/sign.js';
import { REQUIREMENT_SETS } from '../../src/data/generated/requirement-ids.js';
import { digestFile } from '../../src/report/manifest.js';
import { cleanEnv, tempDir } from '../net-kit.js';

const work = tempDir('certify');
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const keyFile = join(work, 'key.pem');
const pubFile = join(work, 'key.pub');
const productFile = join(work, 'product.json');
const submission = join(work, 'submission');
const product = {
  name: 'Reference Pet Store',
  version: '1.0.0',
  vendor: 'The suite',
  url: 'https://example.com/petstore',
  contact: 'conformance@example.com',
  run: 'built into the suite: run certify without --base-url',
};
const clean = () => ({ commit: 'f'.repeat(40), dirty: false });

/** A command in-process: its exit code and what it printed, line by line. */
async function cli(run: () => Promise<number> | number) {
  const lines: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((s) => void lines.push(String(s)));
  vi.spyOn(console, 'error').mockImplementation((s) => void lines.push(String(s)));
  try {
    return { code: await run(), lines };
  } finally {
    vi.restoreAllMocks();
  }
}

const certify = (args: string[], suite = clean) =>
  cli(() =>
    certifyCommand(['--product', productFile, '--key', keyFile, ...args], cleanEnv({ PETSTORE_RUNS: '5' }), main, {
      suite,
    }),
  );
const verify = (dir: string, pub = pubFile) => cli(() => main(['verify-submission', dir, '--pub', pub]));

beforeAll(async () => {
  writeFileSync(keyFile, String(privateKey.export({ type: 'pkcs8', format: 'pem' })));
  writeFileSync(pubFile, String(publicKey.export({ type: 'spki', format: 'pem' })));
  writeFileSync(productFile, `${JSON.stringify(product, null, 2)}\n`);
  const { code, lines } = await certify(['--out', submission, '--seed', '44']);
  expect(lines.at(-1), lines.join('\n')).toMatch(
    /^certify: .*: CERTIFIED (fully-)?conformant; signed submission written$/,
  );
  expect(code).toBe(0);
}, 300_000);

describe('certify', () => {
  test('refuses each weaker configuration with one line, exit 2, and writes nothing', async () => {
    const out = join(work, 'refused');
    const { code, lines } = await certify(
      [
        '--out',
        submission,
        '--only',
        'auth',
        '--skip',
        'getPet',
        '--read-only',
        '--max-creates',
        '10',
        '--requirement-set',
        REQUIREMENT_SETS[0]!.id,
      ],
      () => ({ commit: 'a'.repeat(40), dirty: true }),
    );
    expect(code).toBe(2);
    expect(lines.map((l) => /certify refused: (--[a-z-]+|the suite's files)/.exec(l)?.[1])).toEqual([
      '--requirement-set',
      '--only',
      '--skip',
      '--read-only',
      '--max-creates',
      "the suite's files",
      '--out',
    ]);
    expect(existsSync(out)).toBe(false);
  });

  test('a product file that does not match its schema is one line, exit 2', async () => {
    writeFileSync(join(work, 'bad.json'), JSON.stringify({ ...product, url: 'not a url' }));
    const { code, lines } = await cli(() => main(['certify', '--product', join(work, 'bad.json'), '--key', keyFile]));
    expect(code).toBe(2);
    expect(lines).toEqual([
      expect.stringMatching(
        /--product .*bad\.json: does not match schemas\/product\.schema\.json: \/url must match format "uri"/,
      ),
    ]);
  });

  test('a product file in YAML is read as its JSON would be; one that is not YAML is one line', () => {
    const yaml = Object.entries(product).map(([k, v]) => `${k}: ${JSON.stringify(v)}`);
    writeFileSync(join(work, 'product.yaml'), `# the product, in YAML\n${yaml.join('\n')}\n`);
    expect(readProduct(join(work, 'product.yaml'))).toEqual(product);
    writeFileSync(join(work, 'broken.yml'), 'name: [unclosed\n');
    expect(readProduct(join(work, 'broken.yml'))).toMatch(/broken\.yml: not YAML \(the product file is JSON, or YAML/);
  });

  test('the submission holds the reports, the product file, the HAR, the badge, a README and the signed manifest', () => {
    expect(readdirSync(submission).sort()).toEqual(
      expect.arrayContaining([
        'README.md',
        'badge.svg',
        'certifier.pub',
        'conformance.json',
        'manifest.json',
        'manifest.sig.json',
        'product.json',
        'requests.har',
      ]),
    );
    const manifest = JSON.parse(readFileSync(join(submission, 'manifest.json'), 'utf8')) as {
      product: { sha256: string };
      suite: { sha256: string };
    };
    expect(manifest.product.sha256).toBe(digestFile(productFile).sha256);
    const readme = readFileSync(join(submission, 'README.md'), 'utf8');
    expect(readme).toContain('certify --product product.json --key KEY.pem --seed 44');
    expect(readme).toContain(manifest.suite.sha256);
  });
});

/** Recomputes the hashes of the files named and signs again: only the check aimed at can fail. */
function reseal(dir: string, files: string[]) {
  const path = join(dir, 'manifest.json');
  const m = JSON.parse(readFileSync(path, 'utf8')) as {
    reports: { file: string; bytes: number; sha256: string }[];
    product: { sha256: string };
  };
  for (const r of m.reports) if (files.includes(r.file)) Object.assign(r, digestFile(join(dir, r.file)));
  if (files.includes('product.json')) m.product.sha256 = digestFile(join(dir, 'product.json')).sha256;
  writeFileSync(path, JSON.stringify(m, null, 2));
  signManifest(dir, privateKey);
}

const editJson = (dir: string, file: string, edit: (v: Record<string, any>) => void) => {
  const v = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, any>;
  edit(v);
  writeFileSync(join(dir, file), JSON.stringify(v));
};

const TAMPERINGS: { check: string; says: RegExp; tamper: (dir: string) => void }[] = [
  {
    check: 'signature',
    says: /manifest\.json does not match its signature/,
    tamper: (d) => editJson(d, 'manifest.json', (m) => (m.createdAt = '2026-12-01T00:00:00.000Z')),
  },
  {
    check: 'hashes',
    says: /conformance\.html does not match its SHA-256/,
    tamper: (d) =>
      writeFileSync(join(d, 'conformance.html'), `${readFileSync(join(d, 'conformance.html'), 'utf8')}<!-- edited -->`),
  },
  {
    check: 'product',
    says: /must have required property 'contact'/,
    tamper: (d) => (editJson(d, 'product.json', (p) => delete p.contact), reseal(d, ['product.json'])),
  },
  {
    check: 'requirement set',
    says: /: its SHA-256 is not the set's/,
    tamper: (d) => (editJson(d, 'manifest.json', (m) => (m.requirementSet.sha256 = '0'.repeat(64))), reseal(d, [])),
  },
  {
    check: 'outcomes',
    says: /1 requirement\(s\) skipped or undecided: \S+ \(skipped\)/,
    tamper: (d) => (
      editJson(d, 'conformance.json', (r) => (r.requirements[0].outcome = 'skipped')),
      reseal(d, ['conformance.json'])
    ),
  },
  {
    check: 'suite',
    says: /the suite's SHA-256 0000000000000000… is not that of/,
    tamper: (d) => (editJson(d, 'manifest.json', (m) => (m.suite.sha256 = '0'.repeat(64))), reseal(d, [])),
  },
  {
    check: 'date',
    says: /the run finished 2020-01-01, before its set was frozen/,
    tamper: (d) => (
      editJson(d, 'conformance.json', (r) => (r.run.finishedAt = '2020-01-01T00:00:00.000Z')),
      reseal(d, ['conformance.json'])
    ),
  },
];

describe('verify-submission', () => {
  test('a submission certify wrote passes every check: one ok line each, exit 0', async () => {
    const { code, lines } = await verify(submission);
    expect(lines.map((l) => l.slice(0, 4).trim())).toEqual([...TAMPERINGS.map(() => 'ok'), 'veri']);
    expect(lines.map((l) => /^ok +([a-z ]+):/.exec(l)?.[1]).slice(0, -1)).toEqual(TAMPERINGS.map((t) => t.check));
    expect(code).toBe(0);
  });

  test("without --pub it uses the folder's own key and says so", async () => {
    const { code, lines } = await cli(() => main(['verify-submission', submission]));
    expect(lines[0]).toMatch(/^ok +signature: .*the folder's own certifier\.pub: pass --pub to check who signed/);
    expect(code).toBe(0);
  });

  test.each(TAMPERINGS)(
    'tampering aimed at the $check check fails that check, and only it',
    async ({ check, says, tamper }) => {
      const dir = join(work, `tampered-${check.replace(' ', '-')}`);
      cpSync(submission, dir, { recursive: true });
      tamper(dir);
      const { code, lines } = await verify(dir);
      const failed = lines.filter((l) => l.startsWith('FAIL'));
      expect(failed).toEqual([expect.stringMatching(new RegExp(`^FAIL ${check}: .*${says.source}`))]);
      expect(lines.at(-1)).toMatch(/NOT VERIFIED$/);
      expect(code).toBe(1);
    },
  );
});
