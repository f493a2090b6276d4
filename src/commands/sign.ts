// `petstore-conformance sign REPORT_DIR --key KEY.pem` and `verify REPORT_DIR --pub KEY.pub`: a
// certificate anyone can check and no one can quietly edit. sign writes manifest.sig.json, an
// Ed25519 signature (node:crypto) of manifest.json's exact bytes; the private key is read and used,
// never written. verify checks that signature with the public key the verifier trusts, then every
// report file against its SHA-256 in the manifest. One line each way: exit 0 good, 1 not, 2 usage.
import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { digestFile, sha256, type Manifest } from '../report/manifest.js';
import { MANIFEST_FILE } from '../report/reporter.js';

export const SIGNATURE_FILE = 'manifest.sig.json';
const SIGNATURE_FORMAT = 'petstore-conformance/signature';

interface Signature {
  format: typeof SIGNATURE_FORMAT;
  algorithm: 'Ed25519';
  /** SHA-256 of the signed manifest.json, and of the public key's DER (SPKI): which key signed. */
  manifestSha256: string;
  keyFingerprint: string;
  signature: string;
}

/** Bad usage, an unreadable file or key: one line, exit 2. */
export class SignError extends Error {
  override name = 'SignError';
}

export const fingerprint = (key: KeyObject) => sha256(key.export({ type: 'spki', format: 'der' }));

export function readKey(path: string, make: (pem: Buffer) => KeyObject, what: string): KeyObject {
  let key: KeyObject;
  try {
    key = make(readFileSync(path));
  } catch (err) {
    throw new SignError(
      `${what} ${path}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'not a PEM key'}`,
    );
  }
  if (key.asymmetricKeyType !== 'ed25519')
    throw new SignError(`${what} ${path}: an ${key.asymmetricKeyType ?? 'unknown'} key, not Ed25519`);
  return key;
}

function args(command: string, argv: readonly string[], flag: 'key' | 'pub'): { dir: string; keyPath: string } {
  const usage = `usage: petstore-conformance ${command} REPORT_DIR --${flag} ${flag === 'key' ? 'KEY.pem' : 'KEY.pub'}`;
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: { [flag]: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    throw new SignError(`${(err as Error).message.split('\n')[0]}; ${usage}`);
  }
  const [dir, ...rest] = parsed.positionals;
  const keyPath = parsed.values[flag];
  if (!dir || rest.length || typeof keyPath !== 'string') throw new SignError(usage);
  if (!existsSync(join(dir, MANIFEST_FILE)))
    throw new SignError(`${dir}: no ${MANIFEST_FILE} (a report folder the suite wrote)`);
  return { dir, keyPath };
}

/** Signs REPORT_DIR/manifest.json as it is with the private key; returns the key's fingerprint. */
export function signManifest(dir: string, key: KeyObject): string {
  const manifest = readFileSync(join(dir, MANIFEST_FILE));
  const signature: Signature = {
    format: SIGNATURE_FORMAT,
    algorithm: 'Ed25519',
    manifestSha256: sha256(manifest),
    keyFingerprint: fingerprint(createPublicKey(key)),
    signature: sign(null, manifest, key).toString('base64'),
  };
  writeFileSync(join(dir, SIGNATURE_FILE), `${JSON.stringify(signature, null, 2)}\n`);
  return signature.keyFingerprint;
}

function signReports(argv: readonly string[]): string {
  const { dir, keyPath } = args('sign', argv, 'key');
  const signed = signManifest(
    dir,
    readKey(keyPath, (pem) => createPrivateKey(pem), 'key'),
  );
  return `sign: ${dir}: ${MANIFEST_FILE} signed with the Ed25519 key ${signed.slice(0, 16)}…; ${SIGNATURE_FILE} written`;
}

/** The signature of manifest.json with `pub`: the problem, or null when it holds. */
export function signatureProblem(dir: string, pub: KeyObject): string | null {
  const manifestBytes = readFileSync(join(dir, MANIFEST_FILE));
  if (!existsSync(join(dir, SIGNATURE_FILE))) return `no ${SIGNATURE_FILE}: the reports were never signed`;
  let sig: Signature;
  try {
    sig = JSON.parse(readFileSync(join(dir, SIGNATURE_FILE), 'utf8')) as Signature;
  } catch {
    return `${SIGNATURE_FILE} is not JSON`;
  }
  if (sig.format !== SIGNATURE_FORMAT || sig.algorithm !== 'Ed25519' || typeof sig.signature !== 'string')
    return `${SIGNATURE_FILE} is not a signature of this suite`;
  if (sig.keyFingerprint !== fingerprint(pub))
    return `signed with another key (${String(sig.keyFingerprint).slice(0, 16)}…)`;
  if (!verify(null, manifestBytes, pub, Buffer.from(sig.signature, 'base64')))
    return `${MANIFEST_FILE} does not match its signature: it changed after signing`;
  return null;
}

/** Every file the manifest lists against its SHA-256: the first problem, or how many files matched. */
export function hashProblem(dir: string): string | number {
  const manifest = JSON.parse(readFileSync(join(dir, MANIFEST_FILE), 'utf8')) as Manifest;
  for (const r of manifest.reports) {
    const path = join(dir, r.file);
    if (!existsSync(path)) return `${r.file}, listed in ${MANIFEST_FILE}, is missing`;
    const { bytes, sha256: digest } = digestFile(path);
    if (digest !== r.sha256 || bytes !== r.bytes)
      return `${r.file} does not match its SHA-256 in ${MANIFEST_FILE}: it changed`;
  }
  return manifest.reports.length;
}

/** Checks the signature, then every report file's hash: the first problem, or how many files matched. */
function check(dir: string, pub: KeyObject): string | number {
  return signatureProblem(dir, pub) ?? hashProblem(dir);
}

function verifyReports(argv: readonly string[]): [ok: boolean, line: string] {
  const { dir, keyPath } = args('verify', argv, 'pub');
  const pub = readKey(keyPath, (pem) => createPublicKey(pem), 'public key');
  const files = check(dir, pub);
  if (typeof files === 'string') return [false, `verify: ${dir}: NOT VERIFIED: ${files}`];
  return [
    true,
    `verify: ${dir}: verified: signed by the Ed25519 key ${fingerprint(pub).slice(0, 16)}…, and ${files} report files match their SHA-256`,
  ];
}

/** `sign` or `verify`: the exit code. */
export function signatureCommand(command: 'sign' | 'verify', argv: readonly string[]): number {
  try {
    if (command === 'sign') {
      console.log(signReports(argv));
      return 0;
    }
    const [ok, line] = verifyReports(argv);
    (ok ? console.log : console.error)(line);
    return ok ? 0 : 1;
  } catch (err) {
    if (!(err instanceof SignError)) throw err;
    console.error(`petstore-conformance: ${err.message}`);
    return 2;
  }
}
