// A certificate no one can quietly edit (issue 29): `sign REPORT_DIR --key KEY.pem` signs
// manifest.json with Ed25519, `verify REPORT_DIR --pub KEY.pub` checks the signature and every
// report file's hash, one line and exit 0 or 1 each way. The manifest carries the requirement set
// scored against and the target's fingerprint.
import { generateKeyPairSync } from 'node:crypto';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test, vi } from 'vitest';
import { main } from '../../src/commands/cli.js';
import { CURRENT_REQUIREMENT_SET } from '../../src/data/generated/requirement-ids.js';
import { sha256 } from '../../src/report/manifest.js';
import { runBin, tempDir } from '../net-kit.js';

const work = tempDir('sign');
const reports = join(work, 'reports');
const pem = (k: { export(o: object): string | Buffer }, type: 'pkcs8' | 'spki') =>
  String(k.export({ type, format: 'pem' }));
const pair = () => generateKeyPairSync('ed25519');
const { privateKey, publicKey } = pair();
const keyFile = join(work, 'key.pem');
const pubFile = join(work, 'key.pub');
const otherPub = join(work, 'other.pub');

/** `sign` or `verify` in-process: exit code and what it printed. */
async function cli(args: string[]) {
  const lines: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((s) => void lines.push(String(s)));
  vi.spyOn(console, 'error').mockImplementation((s) => void lines.push(String(s)));
  try {
    return { code: await main(args), out: lines.join('\n') };
  } finally {
    vi.restoreAllMocks();
  }
}

/** A copy of the signed reports, edited by `edit`. */
function copy(name: string, edit: (dir: string) => void): string {
  const dir = join(work, name);
  cpSync(reports, dir, { recursive: true });
  edit(dir);
  return dir;
}

beforeAll(async () => {
  writeFileSync(keyFile, pem(privateKey, 'pkcs8'));
  writeFileSync(pubFile, pem(publicKey, 'spki'));
  writeFileSync(otherPub, pem(pair().publicKey, 'spki'));
  const run = await runBin(['--only', 'service.json-content-type'], {
    cwd: work,
    env: { PETSTORE_REPORT_DIR: reports },
  });
  expect(run.code, run.out).toBe(0);
  const signed = await cli(['sign', reports, '--key', keyFile]);
  expect(signed.code, signed.out).toBe(0);
  expect(signed.out).toMatch(
    /^sign: .*manifest\.json signed with the Ed25519 key [0-9a-f]{16}…; manifest\.sig\.json written$/,
  );
});

describe('sign and verify', () => {
  test('the manifest names the requirement set and the target; the private key is written nowhere', () => {
    const manifest = JSON.parse(readFileSync(join(reports, 'manifest.json'), 'utf8')) as {
      requirementSet: { id: string; sha256: string };
      targetFingerprint: { baseUrl: string; server: string | null; sha256: string };
    };
    expect(manifest.requirementSet.id).toBe(CURRENT_REQUIREMENT_SET);
    expect(manifest.requirementSet.sha256).toMatch(/^[0-9a-f]{64}$/);
    const t = manifest.targetFingerprint;
    expect(t.sha256).toBe(sha256(`${t.baseUrl}\n${t.server ?? ''}`));
    const secret = pem(privateKey, 'pkcs8').split('\n')[1] as string;
    for (const f of readdirSync(reports)) expect(readFileSync(join(reports, f), 'utf8'), f).not.toContain(secret);
  });

  test('a signed report verifies: exit 0, one line', async () => {
    const { code, out } = await cli(['verify', reports, '--pub', pubFile]);
    expect(out).toMatch(
      /^verify: .*: verified: signed by the Ed25519 key [0-9a-f]{16}…, and \d+ report files match their SHA-256$/,
    );
    expect(code).toBe(0);
  });

  test('one byte of conformance.json changed: exit 1, naming the file', async () => {
    const dir = copy('one-byte', (d) => {
      const file = join(d, 'conformance.json');
      const text = readFileSync(file, 'utf8');
      writeFileSync(file, text.replace('"verdict": "conformant"', '"verdict": "conformanT"'));
    });
    const { code, out } = await cli(['verify', dir, '--pub', pubFile]);
    expect(out).toMatch(/NOT VERIFIED: conformance\.json does not match its SHA-256 in manifest\.json: it changed$/);
    expect(code).toBe(1);
  });

  test('the manifest rehashed without the key: exit 1, the signature does not match', async () => {
    const dir = copy('rehashed', (d) => {
      const file = join(d, 'conformance.json');
      const text = readFileSync(file, 'utf8').replace('"verdict": "conformant"', '"verdict": "conformanT"');
      writeFileSync(file, text);
      const manifestFile = join(d, 'manifest.json');
      const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as {
        reports: { file: string; sha256: string; bytes: number }[];
      };
      for (const r of manifest.reports)
        if (r.file === 'conformance.json') Object.assign(r, { sha256: sha256(text), bytes: Buffer.byteLength(text) });
      writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
    });
    const { code, out } = await cli(['verify', dir, '--pub', pubFile]);
    expect(out).toMatch(/NOT VERIFIED: manifest\.json does not match its signature: it changed after signing$/);
    expect(code).toBe(1);
  });

  test('another public key, or no signature: exit 1; no key file: exit 2', async () => {
    expect((await cli(['verify', reports, '--pub', otherPub])).out).toMatch(/NOT VERIFIED: signed with another key/);
    const unsigned = copy('unsigned', (d) => writeFileSync(join(d, 'manifest.sig.json'), '{}'));
    expect((await cli(['verify', unsigned, '--pub', pubFile])).code).toBe(1);
    const missing = await cli(['sign', reports, '--key', join(work, 'nope.pem')]);
    expect(missing).toMatchObject({ code: 2 });
    expect(missing.out).toMatch(/key .*nope\.pem: no such file/);
  });
});
