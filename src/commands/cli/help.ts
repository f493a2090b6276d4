// What the command line prints and exits on: --help, --version's figures, --show-config, --list.
import { readPackageJson } from '../../config/package-root.js';
import type { Config } from '../../config/config.js';
import type { Requirement } from '../../checks/requirement.js';
import { COMMANDS, flagged, isSwitch, settings, type AnySetting, type Key } from './args.js';

export const SUITE_VERSION = String(readPackageJson('package.json').version);
export const INTERFACE_VERSION = String((readPackageJson('schemas/openapi.json').info as { version: string }).version);

const WIDTH = 100;

function wrap(text: string, indent: number, width = WIDTH): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && indent + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** An option's entry: the flag in a column, its explanation wrapped beside it. */
function entry(flag: string, text: string): string {
  const col = 24;
  const [first = '', ...rest] = wrap(text, col);
  const head = flag.length >= col - 2 ? `  ${flag}\n${' '.repeat(col)}${first}` : `  ${flag.padEnd(col - 2)}${first}`;
  return [head, ...rest.map((l) => `${' '.repeat(col)}${l}`)].join('\n');
}

function shownDefault(s: AnySetting): string {
  if (s.default === undefined || (Array.isArray(s.default) && s.default.length === 0)) return '';
  if (typeof s.default === 'boolean') return s.default ? 'on' : 'off';
  return String(s.default);
}

export function helpText(): string {
  const options = flagged.map(([key, s]) => {
    if (key === 'apiKey') {
      return entry(
        `${s.flag} ${s.arg ?? 'NAME'}`,
        `Read the API key from the environment variable NAME instead of ${s.env}. The key itself is never accepted on the command line, where it ` +
          `would land in shell history and process lists. [${s.env}: ${s.doc}]`,
      );
    }
    const flag = isSwitch(s) ? `${s.flag.replace(/^--/, '--[no-]')}` : `${s.flag} ${s.arg ?? 'VALUE'}`;
    const def = shownDefault(s);
    return entry(flag, `${s.doc} [${s.env}${isSwitch(s) ? '=1' : ''}${def ? `; default ${def}` : ''}]`);
  });
  const commands = Object.entries(COMMANDS).map(([c, doc]) => entry(c === 'help' ? '-h, --help' : `--${c}`, doc));
  const section = (title: string, lines: string[]) => [title, ...lines, ''].join('\n');
  const para = (text: string) => wrap(text, 2).map((l) => `  ${l}`);
  return [
    `petstore-conformance ${SUITE_VERSION}: the conformance test suite for the Pet Store Service Interface ${INTERFACE_VERSION}`,
    '',
    ...wrap(
      'Checks an HTTP server against the interface, requirement by requirement: each has a stable id, a level (MUST or SHOULD) and the section of the ' +
        'interface it comes from. With no options it tests its own bundled reference server, so it works straight after install.',
      0,
    ),
    '',
    section('Usage', [
      '  npx petstore-conformance [options]',
      '  npx petstore-conformance diff OLD.json NEW.json [--md FILE]   # what changed between two runs',
      '  npx petstore-conformance matrix A.json B.json … --out DIR     # runs side by side (matrix --help)',
      '  npx petstore-conformance replay REPORT_DIR [--base-url URL]   # its failed checks again (FIXED?)',
      '  npx petstore-conformance export REPORT_DIR --out DIR          # each failure as a test (node:test)',
      '  npx petstore-conformance sign REPORT_DIR --key KEY.pem        # sign the manifest (Ed25519)',
      '  npx petstore-conformance verify REPORT_DIR --pub KEY.pub      # check the signature and every hash',
      '  npx petstore-conformance certify --product P.json --key K.pem # a signed certification run',
      '  npx petstore-conformance verify-submission DIR --pub K.pub    # check one, a line per check',
    ]),
    section('Test your server', [
      "  export PETSTORE_API_KEY='...'     # the key comes from the environment, never the command line",
      '  npx petstore-conformance --base-url https://staging.example.com/v1',
    ]),
    section('Options', [
      ...para(
        'Each option can also be set with the environment variable in brackets, or in a .env file in the current directory (see .env.example). A flag ' +
          'wins over the environment, the environment over .env.',
      ),
      '',
      ...options,
      '',
      ...commands,
    ]),
    section(
      'Set by the surroundings (no flag; read from the environment or .env)',
      settings.filter(([, s]) => !s.flag).map(([, s]) => entry(s.env, s.doc)),
    ),
    section('Exit codes', [
      '  0  conformant: no MUST requirement failed (SHOULD findings are printed as warnings)',
      '  1  not conformant: a MUST requirement failed or could not be decided; with --strict, a SHOULD too.',
      '     With --baseline: only a regression (a failure not in the baseline) fails; with --strict also',
      '     a baseline entry that now passes (fixed). diff: NEW has a MUST failure OLD had not',
      '  2  bad usage or configuration: one line names the flag or variable; nothing was sent',
      '  3  not tested: before any check, GET <base-url>/pets without a key, then with it (?limit=1);',
      '     one line says what is wrong and the reports say "not tested": unreachable (DNS, connection',
      '     refused, TLS, timeout), the key refused (401/403), a base URL without its version segment',
      '     (404), a page that is not JSON (a login page or proxy in front), a failing service or gateway',
      '     (5xx). Only these two requests stop a run; later failures are judged by the checks',
      '  130  interrupted (Ctrl-C; 143 for SIGTERM): the checks stop and the reports keep what was',
      '       decided, marked interrupted; unfinished checks count as undecided',
    ]),
    section('What a run leaves', [
      ...para(
        'On the terminal: a progress line while checks run (only when output is a terminal), then the summary with one line per failed or warned ' +
          'requirement giving its first reason, and a command that replays the run. The full evidence (requests, responses, curl lines) is in the ' +
          'reports, or printed as well with --verbose.',
      ),
      ...para(
        'Reports in the report folder (--report-dir): conformance.html to read, conformance.json, conformance.md (also appended to ' +
          '$GITHUB_STEP_SUMMARY when set) and junit.xml, the ids of every pet the run created in created-pets.json (there is no delete operation), ' +
          'and manifest.json with their SHA-256 sums.',
      ),
      ...para(
        'Pets the suite creates carry the run tag in their name: "pcs-" and the seed in base 36, e.g. "pcs-k3x9z1 pet 12"; the tag is printed when ' +
          'the run starts. With --read-only nothing is created, and checks that must create are reported skipped, with the reason.',
      ),
    ]),
    section('Network', [
      ...para(
        'HTTP_PROXY, HTTPS_PROXY and NO_PROXY are honoured. For an HTTPS target whose certificate comes from a private CA, set ' +
          'NODE_EXTRA_CA_CERTS=/path/to/ca.pem. Redirects are never followed: a 3xx is reported with its Location. A 429 or 503 with Retry-After is ' +
          'retried (--retries); no other answer is.',
      ),
    ]),
    section('Examples', [
      '  npx petstore-conformance --list --only auth                  # what the auth checks are',
      '  npx petstore-conformance --base-url https://prod.example.com/v1 --read-only',
      '  npx petstore-conformance --base-url "$URL" --api-key-env STAGING_KEY --only listPets,getPet',
      '  npx petstore-conformance --skip "createPet.*" --strict',
      '  npx petstore-conformance --seed 1234                         # replay a run exactly',
    ]),
    'CI recipes: docs/ci.md; certifying an implementation: docs/certification.md.',
  ].join('\n');
}

function formatValue(key: Key, value: unknown): string {
  if (key === 'apiKey') return value ? '(set; never shown)' : '(unset)';
  if (value === undefined)
    return key === 'baseUrl'
      ? '(unset: the bundled reference server)'
      : key === 'seed'
        ? '(unset: picked at random and printed)'
        : '(unset)';
  if (Array.isArray(value)) return value.length ? value.join(',') : '(none)';
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows
    .map((r) =>
      r
        .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

export function showConfig(config: Config, source: Record<Key, string>): string {
  return table([
    ['VARIABLE', 'FLAG', 'VALUE', 'FROM'],
    ...settings.map(([key, s]) => [s.env, s.flag ?? '-', formatValue(key, config[key]), source[key]]),
  ]);
}

export function catalogueListing(requirements: readonly Requirement[]): string {
  const must = requirements.filter((r) => r.level === 'MUST').length;
  return [
    table([
      ['ID', 'LEVEL', 'SECTION', 'STATEMENT'],
      ...requirements.map((r) => [r.id, r.level, r.section, r.statement]),
    ]),
    '',
    `${requirements.length} requirements: ${must} MUST, ${requirements.length - must} SHOULD`,
  ].join('\n');
}
